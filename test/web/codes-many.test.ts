// Working on many codes from the list (issue #32): tags added to and taken off a selection;
// export and import (CSV, JSON, ZIP) with progress and a report naming the broken line; and
// "Create many", rows pasted or uploaded, previewed, created in batches.
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'codes-many.db', account: { viewer: false } });

async function v1<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${suite.url}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${suite.account.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${p}`).toBeLessThan(300);
  return (await res.json()) as T;
}

const tagsOf = async (id: string) => (await v1<{ item: { tags: string[] } }>('GET', `/qr/${id}`)).item.tags;

describe.skipIf(!HAVE_CHROMIUM)('many codes at once', () => {
  it('adds a tag to the selected codes and takes another off', { timeout: 120_000 }, async () => {
    const made: string[] = [];
    for (const [i, tags] of [['Old'], ['Old', 'Keep'], []].entries()) {
      const { item } = await v1<{ item: { id: string } }>('POST', '/qr', { title: `Bulk tag ${i}`, url: `https://example.com/${i}`, tags });
      made.push(item.id);
    }
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes?q=${encodeURIComponent('Bulk tag')}`);
    for (const i of [0, 1, 2]) await page.getByRole('checkbox', { name: `Select Bulk tag ${i}` }).check();
    await page.getByRole('button', { name: 'Tags…' }).click();
    const dialog = page.getByRole('dialog', { name: 'Tags of 3 codes' });
    await dialog.waitFor();
    await dialog.getByRole('combobox', { name: /^Add these tags/ }).fill('Spring');
    await dialog.getByRole('button', { name: 'Add tag' }).click();
    await dialog.getByRole('checkbox', { name: /^Old/ }).check();
    await viewportShots(page, 'codes-bulk-tags');
    await checkPage(page, problems, 'codes-bulk-tags');
    await dialog.getByRole('button', { name: 'Save tags of 3 codes' }).click();
    await dialog.waitFor({ state: 'detached' });
    expect(await page.locator('.codes-status').textContent()).toBe('Tags saved on 3 codes.');
    expect(await Promise.all(made.map(tagsOf))).toEqual([['Spring'], ['Keep', 'Spring'], ['Spring']]);
    expect(await page.locator(`.code-row[data-id="${made[1]}"] .tag`).allTextContents()).toEqual(['Keep', 'Spring']);
    await context.close();
  });
});
