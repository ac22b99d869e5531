// Working on many codes from the list (issue #32): tags added to and taken off a selection;
// export and import (CSV, JSON, ZIP) with progress and a report naming the broken line; and
// "Create many", rows pasted or uploaded, previewed, created in batches.
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'codes-many.db', account: { viewer: false } });
// A retried test runs against the same server: its tags are made afresh on each try.
let tries = 0;

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

  it('exports CSV, JSON and a ZIP of a tag’s codes with progress, and imports a CSV, naming the broken line', {
    timeout: 120_000,
  }, async () => {
    const tag = `Export${++tries}`;
    const imported = `Imported${tries}`;
    for (const i of [1, 2]) await v1('POST', '/qr', { title: `Export me ${i}`, url: `https://example.com/e${i}`, tags: [tag] });
    const { context, page, problems } = await suite.signIn(OWNER, { acceptDownloads: true });
    await page.goto(`${suite.url}/app/codes?tag=${tag}`);
    await page.getByRole('link', { name: 'Import & export' }).click();
    await page.waitForURL(new RegExp(`/app/codes/transfer\\?tag=${tag}$`));
    expect(await page.getByLabel('Which codes').inputValue()).toBe(tag);
    const exported = async (label: string) => {
      await page.getByRole('radio', { name: new RegExp(`^${label}`) }).check();
      const [file] = await Promise.all([page.waitForEvent('download'), page.getByRole('button', { name: 'Export', exact: true }).click()]);
      const body = await (await import('node:fs/promises')).readFile((await file.path()) as string);
      return { name: file.suggestedFilename(), body };
    };
    const csv = await exported('Codes as CSV');
    expect(csv.name).toBe(`qr-codes-${tag.toLowerCase()}.csv`);
    expect(csv.body.toString()).toMatch(/^id,code,shortUrl,title/);
    expect(csv.body.toString().match(/Export me/g)?.length).toBe(2);
    expect(await page.locator('.transfer .notice--success').first().textContent()).toMatch(
      new RegExp(`^Exported qr-codes-${tag.toLowerCase()}\\.csv \\(\\d`),
    );
    const json = await exported('Codes as JSON');
    expect((JSON.parse(json.body.toString()) as { items: unknown[] }).items).toHaveLength(2);
    const zip = await exported('Images as a ZIP of PNG');
    expect(zip.name).toBe(`qr-codes-${tag.toLowerCase()}.zip`);
    expect(zip.body.subarray(0, 2).toString()).toBe('PK');

    // A file with a broken third line: nothing is created, the line is named and quoted.
    const dir = await (await import('node:fs/promises')).mkdtemp(`${(await import('node:os')).tmpdir()}/import-`);
    const bad = `${dir}/codes.csv`;
    await (await import('node:fs/promises')).writeFile(
      bad,
      `title,url,tags\nImported 1,https://example.com/i1,${imported}\nImported 2,ftp://nope,${imported}\n`,
    );
    await page.getByLabel('CSV file').setInputFiles(bad);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    const report = page.locator('.import-report');
    await report.waitFor();
    expect(await report.locator('td').first().textContent()).toBe('3');
    expect(await report.locator('.import-report__line code').textContent()).toBe(`Imported 2,ftp://nope,${imported}`);
    expect((await v1<{ items: unknown[] }>('GET', `/qr?tag=${imported}`)).items).toHaveLength(0);
    // The refusal itself, which the browser logs: expected.
    expect(problems.splice(0).every((p) => /status of 400/.test(p))).toBe(true);
    await viewportShots(page, 'codes-transfer-report', report);
    await checkPage(page, problems, 'codes-transfer-report');
    const good = `${dir}/good.csv`;
    await (await import('node:fs/promises')).writeFile(
      good,
      `title,url,tags\nImported 1,https://example.com/i1,${imported}\nImported 2,https://example.com/i2,${imported}\n`,
    );
    await page.getByLabel('CSV file').setInputFiles(good);
    await page.getByRole('button', { name: 'Import', exact: true }).click();
    await page.getByText('Imported 2 codes.').waitFor();
    expect((await v1<{ items: unknown[] }>('GET', `/qr?tag=${imported}`)).items).toHaveLength(2);
    await context.close();
  });

  it('creates many codes from pasted rows: a preview, the broken rows marked, then one batch', { timeout: 120_000 }, async () => {
    const terrace = `Terrace${++tries}`;
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes`);
    await page.locator('.code-row, .first-code').first().waitFor();
    await viewportShots(page, 'codes-list-tools');
    await page.getByRole('link', { name: 'Create many' }).click();
    await page.waitForURL(/\/app\/codes\/many$/);
    const rows = page.getByLabel('One code a line: title, web address, tags');
    await rows.fill(
      'Menu, https://example.com/menu, food|spring\n, https://example.com/none\n"Wine, red", example.com/wine\nBroken, ftp://nope',
    );
    await page.getByRole('combobox', { name: /^Tags for every code/ }).fill(terrace);
    await page.getByRole('button', { name: 'Add tag' }).click();
    expect(await page.locator('.many__table tbody tr').count()).toBe(4);
    expect(await page.locator('tr[data-line="2"] .many__error').textContent()).toBe('Needs a title');
    expect(await page.locator('tr[data-line="3"] td').nth(1).textContent()).toBe('Wine, red');
    expect(await page.getByRole('button', { name: 'Create 4 codes' }).isDisabled()).toBe(true);
    await viewportShots(page, 'codes-create-many-preview');
    await checkPage(page, problems, 'codes-create-many-preview');

    // Fixed in the browser; the server refuses the ftp address and names its row; nothing is created.
    await rows.fill(
      'Menu, https://example.com/menu, food|spring\nNo title yet, https://example.com/none\n"Wine, red", example.com/wine\nBroken, ftp://nope',
    );
    await page.getByRole('button', { name: 'Create 4 codes' }).click();
    await page.locator('tr[data-line="4"] .many__error').waitFor();
    expect(await page.locator('tr[data-line="4"] .many__error').textContent()).toMatch(/^Web address: /);
    expect(await page.getByRole('alert').textContent()).toMatch(/1 row needs fixing/);
    expect((await v1<{ items: unknown[] }>('GET', `/qr?tag=${terrace}`)).items).toHaveLength(0);
    await viewportShots(page, 'codes-create-many-refused');

    await rows.fill('Menu, https://example.com/menu, food|spring\nNo title yet, https://example.com/none\n"Wine, red", example.com/wine');
    await page.getByRole('button', { name: 'Create 3 codes' }).click();
    await page.getByText('Created 3 codes.').waitFor();
    const { items } = await v1<{ items: Array<{ title: string; payload: string; tags: string[] }> }>('GET', `/qr?tag=${terrace}`);
    expect(items.map((i) => [i.title, i.payload, i.tags]).sort()).toEqual([
      ['Menu', 'https://example.com/menu', [terrace, 'food', 'spring']],
      ['No title yet', 'https://example.com/none', [terrace]],
      ['Wine, red', 'https://example.com/wine', [terrace]],
    ]);
    await page.getByRole('link', { name: 'See them in your codes' }).click();
    await page.waitForURL(new RegExp(`/app/codes\\?tag=${terrace}$`));
    await context.close();
  });
});
