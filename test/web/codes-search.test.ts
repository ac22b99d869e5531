// Searching the codes list and the browser's history, through a real browser: a search typed
// key by key is one step in the history, so Back returns to the list as it was before it.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite } from '../support/browser.ts';

const suite = useBrowserSuite({
  db: 'codes-search.db',
  account: { viewer: false },
  seed: async ({ url }) => {
    for (const title of ['Spring menu', 'Guest Wi-Fi', 'Front door']) {
      const res = await fetch(`${url}/v1/qr`, {
        method: 'POST',
        headers: { authorization: `Bearer ${suite.account.key}`, 'content-type': 'application/json' },
        body: JSON.stringify({ title, contentType: 'url', url: `https://example.com/${title.length}` }),
      });
      expect(res.status).toBe(201);
    }
  },
});

const rowTitles = (page: Page) => page.locator('.code-row .code-row__name').allTextContents();

describe.skipIf(!HAVE_CHROMIUM)('searching the codes list', () => {
  it('a search typed key by key is one step back: Back shows the whole list again, Forward the search', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
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
    // The kind chosen rewrote the search's entry (filters add none): one Back to the whole list.
    await page.goBack();
    await page.waitForURL(/\/app\/codes$/);
    await page.goBack();
    await page.waitForURL(/\/app\/overview$/);
    await context.close();
  });
});
