// The codes list through a real browser on a real server: every code's numbers checked
// against the API's (total and the 14-day sparkline), paging past the first page, search
// and filters kept in the address, pause/resume and delete of a selection (the short links
// follow: 404 while paused, 410 once deleted), and a viewer who gets no edit control.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { loadConfig } from '../../src/config.ts';
import { openDatabase } from '../../src/db/database.ts';
import { createSeedingWriter } from '../../src/db/scans/scan-writer.ts';
import type { ScanEvent } from '../../src/domain/scans/scan-batch.ts';
import { HAVE_CHROMIUM, OWNER, VIEWER, checkPage, useBrowserSuite } from '../support/browser.ts';

const TZ = 'America/New_York';
const DAY = 86_400_000;
const FILLERS = 52;

let menu: Item;
let wifi: Item;
const suite = useBrowserSuite({
  db: 'codes.db',
  seed: async () => {
    await batch(
      Array.from({ length: FILLERS }, (_, i) => ({
        title: `Flyer ${String(i + 1).padStart(2, '0')}`,
        url: `https://example.com/flyer/${i + 1}`,
        tags: ['flyers'],
      })),
    );
    [wifi, menu] = (await batch([
      { title: 'Guest Wi-Fi', contentType: 'wifi', wifiSsid: 'Cafe', wifiPass: 'secret', tags: ['office'], color1: '#0b6e4f' },
      { title: 'Spring menu', url: 'https://example.com/menu', tags: ['menu'], dotsStyle: 'rounded', color1: '#1a73e8' },
    ])) as [Item, Item];
    await pastScans(menu, [3, 5, 0, 2, 7, 1, 0, 4, 6, 2, 0, 3, 5, 8, 2, 2, 9]);
    await pastScans(wifi, [1, 0, 0, 2, 0, 0, 1]);
  },
});

interface Item {
  id: string;
  code: string;
  title: string;
  scanCount: number;
  active: boolean;
}
interface ListPage {
  items: Item[];
  nextCursor: string | null;
  sparklines: { series: { id: string; scans: number[] }[] };
}

const v1 = async <T>(p: string, init: RequestInit = {}): Promise<T> => {
  const res = await fetch(`${suite.url}/v1${p}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.account.key}`, ...init.headers },
  });
  expect(res.status, `${p}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as T;
};
const shortLink = async (code: string) => (await fetch(`${suite.url}/r/${code}`, { redirect: 'manual' })).status;

async function batch(items: object[]): Promise<Item[]> {
  const r = await v1<{ items: { item: Item }[] }>('/qr/batch', { method: 'POST', body: JSON.stringify({ items }) });
  return r.items.map((x) => x.item);
}

/** Scans of the last 20 days written straight into the server's database (the short link counts only "now"). */
async function pastScans(item: Item, perDay: number[]): Promise<void> {
  const db = await openDatabase(loadConfig({ DATABASE_URL: suite.dbUrl }).database);
  const writer = createSeedingWriter(db);
  const scans: ScanEvent[] = perDay.flatMap((n, daysAgo) =>
    Array.from({ length: n }, (_, i) => ({
      itemId: item.id,
      accountId: suite.account.accountId,
      scannedAt: new Date(Date.now() - daysAgo * DAY - (i + 1) * 60_000).toISOString(),
      isBot: false,
      device: 'mobile',
      os: 'iOS',
      browser: 'Safari',
      country: 'US',
      referrer: null,
      visitorHash: `v${daysAgo}-${i}`,
    })),
  );
  await Promise.all(scans.map((s) => writer.record(s)));
  await writer.drain();
  await db.close();
}

async function signedIn(who = OWNER, opts: { dark?: boolean } = {}): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const signed = await suite.signIn(who, { timezoneId: TZ, dark: opts.dark });
  await signed.page.locator('.code-row').first().waitFor();
  return signed;
}

const rowTitles = (page: Page) => page.locator('.code-row .code-row__name').allTextContents();
const row = (page: Page, title: string) => page.locator('.code-row', { has: page.getByRole('link', { name: title, exact: true }) });
/** Titles unique to one try of a test (browser tests get retried on a starved machine). */
const fresh = (title: string) => `${title} ${Date.now().toString(36)}`;

describe.skipIf(!HAVE_CHROMIUM)('the codes list in a browser', () => {
  it("shows each code's thumbnail, kind, short link, status, total and sparkline as the API counts them, and pages on", {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await signedIn();
    await context.grantPermissions(['clipboard-read', 'clipboard-write'], { origin: suite.url });
    expect(await page.locator('.code-row').count()).toBe(50);
    const api = await v1<ListPage>(`/qr?limit=50&include=sparkline&tz=${encodeURIComponent(TZ)}`);
    const shown = await page.locator('.code-row').evaluateAll((rows) =>
      rows.map((r) => ({
        id: (r as HTMLElement).dataset.id,
        total: Number((r.querySelector('[data-total]') as HTMLElement).dataset.total),
        spark: (r.querySelector('.spark') as SVGElement | null)?.dataset.scans,
      })),
    );
    expect(shown).toEqual(api.items.map((it, i) => ({ id: it.id, total: it.scanCount, spark: api.sparklines.series[i]!.scans.join(',') })));
    expect(shown[0]!.spark).not.toMatch(/^[0,]+$/);
    // The numbers are the stats page's numbers in the browser's own zone.
    const stats = await v1<{ daily: { date: string; scans: number }[] }>(`/qr/${menu.id}/stats?days=14&tz=${encodeURIComponent(TZ)}`);
    expect(shown[0]!.spark).toBe(stats.daily.map((d) => d.scans).join(','));
    // Read aloud, a sparkline is one sentence, not 14 numbers.
    const busiest = stats.daily.reduce((best, d) => (d.scans >= best.scans ? d : best));
    const on = new Intl.DateTimeFormat('en-US', { month: 'short', day: 'numeric', timeZone: 'UTC' }).format(
      new Date(`${busiest.date}T00:00:00Z`),
    );
    const sum = stats.daily.reduce((a, d) => a + d.scans, 0);
    expect(await page.locator(`.code-row[data-id="${menu.id}"] .spark`).getAttribute('aria-label')).toBe(
      `${sum} scans in 14 days, busiest ${busiest.scans} on ${on}`,
    );

    const first = row(page, 'Spring menu');
    expect(await first.locator('.code-row__kind').textContent()).toBe('Link');
    expect(await row(page, 'Guest Wi-Fi').locator('.code-row__kind').textContent()).toBe('Wi-Fi');
    expect(await first.locator('.status').textContent()).toBe('Active');
    expect(await first.locator('code').textContent()).toBe(`${new URL(suite.url).host}/r/${menu.code}`);
    const thumb = first.locator('img');
    expect(await thumb.getAttribute('loading')).toBe('lazy');
    await expect
      .poll(() => thumb.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0), {
        timeout: 20_000,
      })
      .toBe(true);
    await first.getByRole('button', { name: 'Copy the short link of Spring menu' }).click();
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(`${suite.url}/r/${menu.code}`);
    expect(await first.getByRole('link', { name: 'Spring menu', exact: true }).getAttribute('href')).toBe(`/app/codes/${menu.id}`);
    expect(await first.getByRole('link', { name: 'Edit Spring menu' }).getAttribute('href')).toBe(`/app/codes/${menu.id}/edit`);
    expect(await page.getByRole('link', { name: 'New code' }).getAttribute('href')).toBe('/app/codes/new');
    await checkPage(page, problems, 'codelist-list');

    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => page.locator('.code-row').count()).toBe(FILLERS + 2);
    expect((await rowTitles(page)).at(-1)).toBe('Flyer 01');
    expect(await page.getByRole('button', { name: 'Show more' }).count()).toBe(0);
    await context.close();
  });

  it('searches as you type and filters by kind, status and tag; reload and Back keep the list', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await signedIn();
    await page.getByLabel('Search').fill('menu');
    await page.waitForURL(/\/app\/codes\?q=menu$/);
    await expect.poll(() => rowTitles(page)).toEqual(['Spring menu']);
    await page.reload();
    await expect.poll(() => rowTitles(page)).toEqual(['Spring menu']);
    expect(await page.getByLabel('Search').inputValue()).toBe('menu');

    await page.getByRole('button', { name: 'Clear filters' }).click();
    await page.getByLabel('Kind').selectOption('wifi');
    await page.waitForURL(/kind=wifi/);
    await expect.poll(() => rowTitles(page)).toEqual(['Guest Wi-Fi']);
    // Chosen filters rewrite the history entry of the list they narrow: Back leaves them all
    // for the list before them (here the search "menu"), not one filter at a time.
    await page.getByLabel('Status').selectOption('paused');
    await page.waitForURL(/kind=wifi&status=paused$/);
    await page.getByText('No codes match these filters.').waitFor();
    await page.goBack();
    await page.waitForURL(/\/app\/codes\?q=menu$/);
    await expect.poll(() => rowTitles(page)).toEqual(['Spring menu']);
    expect(await page.getByLabel('Kind').inputValue()).toBe('');
    expect(await page.getByLabel('Status').inputValue()).toBe('');
    await page.goForward();
    await page.waitForURL(/kind=wifi&status=paused$/);
    await page.getByText('No codes match these filters.').waitFor();
    await page.getByLabel('Status').selectOption('');
    await page.waitForURL(/\/app\/codes\?kind=wifi$/);
    await expect.poll(() => rowTitles(page)).toEqual(['Guest Wi-Fi']);

    await page.getByLabel('Kind').selectOption('');
    await page.getByLabel('Tag').selectOption('flyers');
    await page.waitForURL(/tag=flyers/);
    await expect.poll(() => page.locator('.code-row').count()).toBe(50);
    await page.getByLabel('Search').fill('Flyer 0');
    await expect
      .poll(() => rowTitles(page))
      .toEqual(['Flyer 09', 'Flyer 08', 'Flyer 07', 'Flyer 06', 'Flyer 05', 'Flyer 04', 'Flyer 03', 'Flyer 02', 'Flyer 01']);
    await checkPage(page, problems, 'codelist-filtered');

    await page.goto(`${suite.url}/app/codes?status=paused&q=nothing-like-this`);
    await page.getByText('No codes match these filters.').waitFor();
    expect(await page.getByLabel('Status').inputValue()).toBe('paused');
    await context.close();
  });

  it('a filter chosen right after "Clear filters" does not bring the cleared search back', { timeout: 120_000 }, async () => {
    const { context, page } = await signedIn();
    await page.goto(`${suite.url}/app/codes?q=menu`);
    await expect.poll(() => rowTitles(page)).toEqual(['Spring menu']);
    // As a quick person (or a slow machine) does it: the kind is chosen once the page has
    // rendered the cleared address but before its effects ran, which is when the search box
    // still held "menu".
    await page.evaluate(async () => {
      const clear = [...document.querySelectorAll('button')].find((b) => b.textContent?.trim() === 'Clear filters');
      clear?.click();
      await Promise.resolve();
      await Promise.resolve();
      const kind = document.querySelector<HTMLSelectElement>('select#codes-kind');
      if (!kind) throw new Error('no Kind select');
      kind.value = 'wifi';
      kind.dispatchEvent(new Event('change', { bubbles: true }));
    });
    await page.waitForURL(/\/app\/codes\?kind=wifi$/);
    await expect.poll(() => rowTitles(page)).toEqual(['Guest Wi-Fi']);
    await context.close();
  });

  it('pauses and resumes a selection at once; the short links answer 404 while paused', { timeout: 120_000 }, async () => {
    const stem = fresh('Pause me');
    const [a, b] = (await batch([
      { title: `${stem} A`, url: 'https://example.com/a' },
      { title: `${stem} B`, url: 'https://example.com/b' },
    ])) as [Item, Item];
    const { context, page, problems } = await signedIn();
    await page.getByLabel('Search').fill(stem);
    await expect.poll(() => rowTitles(page)).toEqual([b.title, a.title]);
    await page.getByLabel('Select all shown').check();
    const bar = page.getByRole('region', { name: 'Selected codes' });
    expect(await bar.textContent()).toMatch(/2 codes selected/);
    await checkPage(page, problems, 'codelist-selected');
    await bar.getByRole('button', { name: 'Pause' }).click();
    await expect.poll(() => page.getByRole('status').filter({ hasText: 'Paused 2 codes.' }).count()).toBe(1);
    expect(await page.locator('.code-row .status').allTextContents()).toEqual(['Paused', 'Paused']);
    expect(await shortLink(a.code)).toBe(404);
    expect(await shortLink(b.code)).toBe(404);
    expect((await v1<Item[] & { item: Item }>(`/qr/${a.id}`)).item.active).toBe(false);

    // One row's own button, keyboard only.
    await page.getByRole('button', { name: `Resume ${a.title}` }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => row(page, a.title).locator('.status').textContent()).toBe('Active');
    expect(await shortLink(a.code)).toBe(302);
    await bar.getByRole('button', { name: 'Resume' }).click();
    await expect.poll(() => page.locator('.code-row .status').allTextContents()).toEqual(['Active', 'Active']);
    expect(await shortLink(b.code)).toBe(302);
    await context.close();
  });

  it('deletes only after a confirmation saying the short link answers 410 forever, which it then does', { timeout: 120_000 }, async () => {
    const stem = fresh('Old poster');
    const [one, two, three] = (await batch([1, 2, 3].map((n) => ({ title: `${stem} ${n}`, url: `https://example.com/old/${n}` })))) as [
      Item,
      Item,
      Item,
    ];
    const { context, page, problems } = await signedIn();
    await page.getByLabel('Search').fill(stem);
    await expect.poll(() => page.locator('.code-row').count()).toBe(3);

    await page.getByRole('button', { name: `Delete ${one.title}` }).click();
    const dialog = page.getByRole('dialog', { name: `Delete “${one.title}”?` });
    expect(await dialog.textContent()).toMatch(/short link will answer 410 Gone forever/);
    expect(await dialog.textContent()).toMatch(/cannot be undone/);
    await checkPage(page, problems, 'codelist-delete-dialog');
    await page.keyboard.press('Escape');
    await expect.poll(() => dialog.count()).toBe(0);
    expect(await shortLink(one.code)).toBe(302);
    await page.getByRole('button', { name: `Delete ${one.title}` }).click();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await expect.poll(() => rowTitles(page)).toEqual([three.title, two.title]);
    expect(await shortLink(one.code)).toBe(410);

    await page.getByLabel(`Select ${two.title}`).check();
    await page.getByLabel(`Select ${three.title}`).check();
    await page.getByRole('region', { name: 'Selected codes' }).getByRole('button', { name: 'Delete…' }).click();
    const many = page.getByRole('dialog', { name: 'Delete 2 codes?' });
    expect(await many.textContent()).toMatch(/Their short links will answer 410 Gone forever/);
    await many.getByRole('button', { name: 'Delete 2 codes for good' }).click();
    await page.getByText('No codes match these filters.').waitFor();
    expect(await shortLink(two.code)).toBe(410);
    expect(await shortLink(three.code)).toBe(410);
    await context.close();
  });

  it('shows a viewer the list without any edit control, with a View & download link to each code’s design', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await signedIn(VIEWER);
    expect(await page.locator('.code-row').count()).toBeGreaterThan(0);
    expect(await page.locator('input[type="checkbox"]').count()).toBe(0);
    expect(await page.getByRole('region', { name: 'Selected codes' }).count()).toBe(0);
    // Reading is all theirs: the short links can still be copied.
    expect(await page.getByRole('button', { name: /^Copy the short link/ }).count()).toBeGreaterThan(0);
    for (const name of [/^Pause/, /^Resume/, /^Delete/]) expect(await page.getByRole('button', { name }).count(), String(name)).toBe(0);
    for (const name of [/^Edit /, /^New code$/]) expect(await page.getByRole('link', { name }).count(), String(name)).toBe(0);
    expect(await page.locator('a[href$="/codes/new"]').count()).toBe(0);
    // The studio opens read-only for them: its one link says so (the design and downloads).
    const toStudio = await page.locator('a[href$="/edit"]').allTextContents();
    expect(toStudio.length).toBeGreaterThan(0);
    expect(new Set(toStudio)).toEqual(new Set(['View & download']));
    expect(await page.locator('.spark').count()).toBeGreaterThan(0);
    await checkPage(page, problems, 'codelist-viewer');
    await context.close();
  });

  it('stays readable in dark mode', { timeout: 60_000 }, async () => {
    const { context, page, problems } = await signedIn(OWNER, { dark: true });
    await page.getByLabel('Select Spring menu').check();
    await checkPage(page, problems, 'codelist-dark');
    await context.close();
  });
});
