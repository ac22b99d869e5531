// Small things of the studio (issue #32): a code the scan check says will not scan is created only
// when the user says so; the title counts its characters and is never cut silently; a long title
// stays inside a phone's width on the edit page; a blank logo is refused by the preview as the API
// refuses it; colours without their #; the design file's name before a title; the built-in
// "Menu card" draws no warning; the sign-in page's way out for the only owner; the API reference.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { encodePng } from '../../src/render/png-encoder.ts';
import { tempDir } from '../support/test-app.ts';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-small-fixes.db', account: { viewer: false } });
// A retried test runs against the same server: names are made afresh on each try.
let tries = 0;

async function v1<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${suite.url}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${suite.account.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${p}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

async function codesTitled(title: string): Promise<number> {
  const { items } = await v1<{ items: Array<{ title: string }> }>('GET', `/qr?q=${encodeURIComponent(title)}`);
  return items.filter((i) => i.title === title).length;
}

async function fillNewCode(page: Page, title: string): Promise<void> {
  await page.goto(`${suite.url}/app/codes/new`);
  await page.locator('.preview__img').waitFor();
  await page.getByLabel('Title', { exact: true }).fill(title);
  await page.getByRole('textbox', { name: 'Web address', exact: true }).fill('https://example.com/white');
}

function overflowsSideways(page: Page): Promise<boolean> {
  return page.evaluate(() => document.documentElement.scrollWidth > innerWidth);
}

describe.skipIf(!HAVE_CHROMIUM)('small things of the studio', () => {
  it('asks “Create anyway?” before creating a code its scan check cannot read; going back creates nothing', {
    timeout: 120_000,
  }, async () => {
    const title = `White on white ${++tries}`;
    const { context, page, problems } = await suite.signIn(OWNER);
    await fillNewCode(page, title);
    await page.locator('#group-colours summary').click();
    await page.getByLabel('Code colour', { exact: true }).fill('#ffffff');
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('bad');

    await page.locator('.studio__actions .btn').click();
    const dialog = page.getByRole('dialog', { name: 'Create anyway?' });
    await dialog.waitFor();
    expect(await dialog.textContent()).toMatch(/will probably not scan/);
    // Going back is the default.
    expect(await page.evaluate(() => document.activeElement?.textContent)).toBe('Go back and fix it');
    await checkPage(page, problems, 'studio-create-anyway');
    await viewportShots(page, 'studio-create-anyway-dialog');
    await page.keyboard.press('Escape');
    await dialog.waitFor({ state: 'detached' });
    expect(page.url()).toMatch(/\/app\/codes\/new$/);
    expect(await codesTitled(title)).toBe(0);

    // Asked again, and this time created (the API answers 201 with its warnings).
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await dialog.getByRole('button', { name: 'Create anyway' }).click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    expect(await codesTitled(title)).toBe(1);
    // Saving it again without touching the design asks nothing.
    await page.getByLabel('Title', { exact: true }).fill(`${title}, renamed`);
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('bad');
    await page.locator('.studio__actions .btn').click();
    await expect.poll(() => page.locator('.studio__status').textContent()).toMatch(/^All changes saved/);
    expect(await page.getByRole('dialog').count()).toBe(0);
    await context.close();
  });

  it('creates a code that scans without a question', { timeout: 120_000 }, async () => {
    const title = `Plain ${++tries}`;
    const { context, page } = await suite.signIn(OWNER);
    await fillNewCode(page, title);
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    await page.locator('.studio__actions .btn').click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    expect(await codesTitled(title)).toBe(1);
    await context.close();
  });

  it('counts the title’s characters, says how many are too many, and never cuts it', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    const field = page.getByLabel('Title', { exact: true });
    await field.fill('Menu');
    expect(await page.locator('#f-title-count').textContent()).toBe('4 of 120 characters');
    // Counted as the API counts: by character, an emoji is one.
    await field.fill('Menü 🍝');
    expect(await page.locator('#f-title-count').textContent()).toBe('6 of 120 characters');
    const long = 'A title far too long for the list. '.repeat(4).slice(0, 130);
    await field.fill(long);
    expect(await field.inputValue()).toBe(long);
    expect(await page.locator('#f-title-count').textContent()).toBe('130 of 120 characters: 10 too many');
    expect(await page.locator('#f-title-count').getAttribute('class')).toContain('counter--over');
    // Its error, once the field is left (as every field's).
    await page.keyboard.press('Tab');
    expect(await page.locator('#f-title-error').textContent()).toBe('Must be at most 120 characters');
    expect(await field.getAttribute('aria-describedby')).toContain('f-title-count');
    await field.scrollIntoViewIfNeeded();
    await checkPage(page, problems, 'studio-title-counter');
    await context.close();
  });

  it('keeps a long title inside a phone’s width on the edit page', { timeout: 120_000 }, async () => {
    const oneWord = 'Supercalifragilisticexpialidocious'.repeat(4).slice(0, 120);
    const words = 'Spring menu for the terrace and the garden room, with the wine list, the desserts and the kids’ menu too';
    const { context, page, problems } = await suite.signIn(OWNER);
    for (const [i, title] of [oneWord, words].entries()) {
      const { item } = await v1<{ item: { id: string } }>('POST', '/qr', { title, url: 'https://example.com/menu' });
      await page.goto(`${suite.url}/app/codes/${item.id}/edit`);
      await page.getByRole('heading', { level: 1 }).waitFor();
      await page.locator('.preview__img').waitFor();
      expect(await overflowsSideways(page), title).toBe(false);
      const h1 = await page.getByRole('heading', { level: 1 }).boundingBox();
      expect(h1 && h1.x + h1.width <= 390).toBe(true);
      if (i === 0) {
        await viewportShots(page, 'studio-long-title');
        await checkPage(page, problems, 'studio-long-title-page');
      }
    }
    await context.close();
  });

  it('refuses a fully transparent PNG logo in the preview with the API’s own sentence, and creates nothing', {
    timeout: 120_000,
  }, async () => {
    const file = path.join(tempDir(), 'blank.png');
    fs.writeFileSync(file, encodePng(new Uint8Array(64 * 64 * 4), 64, 64, false));
    const title = `Blank logo ${++tries}`;
    const { context, page, problems } = await suite.signIn(OWNER);
    await fillNewCode(page, title);
    await page.locator('#group-logo summary').click();
    await page.getByLabel('Your own logo').setInputFiles(file);
    const error = page.locator('#d-customLogoUrl-error');
    await error.waitFor();
    expect(await error.textContent()).toBe('The image cannot be decoded (the file is damaged, or every pixel is transparent)');
    await page.locator('.studio__actions .btn').click();
    // Refused here, before the API: the form says why, and nothing is created.
    await expect.poll(() => page.locator('.form-error').first().textContent()).toMatch(/logo|design|fix/i);
    expect(page.url()).toMatch(/\/app\/codes\/new$/);
    expect(await codesTitled(title)).toBe(0);
    await error.scrollIntoViewIfNeeded();
    await viewportShots(page, 'studio-blank-logo', error);
    await checkPage(page, problems, 'studio-blank-logo');
    await context.close();
  });

  it('takes a colour typed without its #, names a design exported before a title design.json, and starts “Menu card” without warnings', {
    timeout: 120_000,
  }, async () => {
    const { context, page } = await suite.signIn(OWNER, { acceptDownloads: true });
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    await page.locator('#group-colours summary').click();
    const colour = page.getByLabel('Code colour', { exact: true });
    await colour.fill('1a73e8');
    expect(await colour.inputValue()).toBe('#1a73e8');
    expect(await page.locator('#d-color1-error').count()).toBe(0);
    const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export design (JSON)' }).click()]);
    expect(file.suggestedFilename()).toBe('design.json');

    await page.getByLabel('Start from a design').selectOption({ label: 'Menu card (built in)' });
    await page.getByRole('button', { name: 'Use this design' }).click();
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    expect(await page.locator('#design-warnings').count()).toBe(0);
    await context.close();
  });

  it('tells the only owner how to reset a forgotten password, and links every page to the API reference', {
    timeout: 120_000,
  }, async () => {
    const context = await suite.browser.newContext({ viewport: { width: 390, height: 844 } });
    const page = await context.newPage();
    await page.goto(`${suite.url}/app/sign-in`);
    expect(await page.locator('.sign-in__forgot').textContent()).toContain('npm run -s qrtrack -- users reset-link');
    await viewportShots(page, 'sign-in-forgot');
    await context.close();
    const signed = await suite.signIn(OWNER);
    const link = signed.page.getByRole('link', { name: 'API reference' });
    expect(await link.getAttribute('href')).toBe('/docs');
    expect((await fetch(`${suite.url}/docs`, { redirect: 'follow' })).status).toBe(200);
    await signed.context.close();
  });
});
