// Searching the codes list and the browser's history, through a real browser: a search typed
// key by key is one step in the history, so Back returns to the list as it was before it.
import path from 'node:path';
import type { Browser, Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';
import { HAVE_CHROMIUM, OWNER, SHOTS_DIR, checkPage, launch, setUpAccount, signedInPage } from './browser.ts';

let server: RunningServer;
let browser: Browser;

const rowTitles = (page: Page) => page.locator('.code-row .code-row__name').allTextContents();

describe.skipIf(!HAVE_CHROMIUM)('searching the codes list', () => {
  beforeAll(async () => {
    server = await startServer({ DATABASE_URL: `sqlite:${path.join(tempDir(), 'codes-search.db')}` });
    const { key } = await setUpAccount(server, { viewer: false });
    for (const title of ['Spring menu', 'Guest Wi-Fi', 'Front door']) {
      const res = await fetch(`${server.url}/v1/qr`, { method: 'POST', headers: { authorization: `Bearer ${key}`, 'content-type': 'application/json' }, body: JSON.stringify({ title, contentType: 'url', url: `https://example.com/${title.length}` }) });
      expect(res.status).toBe(201);
    }
    browser = await launch();
    console.log(`screenshots in ${SHOTS_DIR}`);
  }, 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });

  it('a search typed key by key is one step back: Back shows the whole list again, Forward the search', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await signedInPage(browser, server.url, OWNER);
    // Came from the overview, so a Back that leaves the list would land there.
    await page.getByRole('link', { name: 'Overview' }).click();
    await page.waitForURL(/\/app\/overview$/);
    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    await page.waitForURL(/\/app\/codes$/);
    await expect.poll(() => rowTitles(page)).toHaveLength(3);

    const search = page.getByLabel('Search');
    // Pauses longer than the search's delay: each pause changes the address.
    for (const text of ['m', 'me', 'men', 'menu']) {
      await search.fill(text);
      await page.waitForURL(new RegExp(`/app/codes\\?q=${text}$`));
    }
    await expect.poll(() => rowTitles(page)).toEqual(['Spring menu']);
    await checkPage(page, problems, 'codelist-searched');

    await page.goBack();
    await page.waitForURL(/\/app\/codes$/);
    await expect.poll(() => rowTitles(page)).toHaveLength(3);
    expect(await search.inputValue()).toBe('');

    await page.goForward();
    await page.waitForURL(/\/app\/codes\?q=menu$/);
    await expect.poll(() => rowTitles(page)).toEqual(['Spring menu']);
    expect(await search.inputValue()).toBe('menu');

    // A new search after a chosen filter is a step of its own again.
    await page.getByLabel('Kind').selectOption('url');
    await page.waitForURL(/\/app\/codes\?q=menu&kind=url$/);
    await search.fill('door');
    await page.waitForURL(/\/app\/codes\?q=door&kind=url$/);
    await search.fill('front door');
    await page.waitForURL(/\/app\/codes\?q=front\+door&kind=url$/);
    await expect.poll(() => rowTitles(page)).toEqual(['Front door']);
    await page.goBack();
    await page.waitForURL(/\/app\/codes\?q=menu&kind=url$/);
    await expect.poll(() => rowTitles(page)).toEqual(['Spring menu']);
    await page.goBack();
    await page.goBack();
    await page.waitForURL(/\/app\/codes$/);
    await page.goBack();
    await page.waitForURL(/\/app\/overview$/);
    await context.close();
  });
});
