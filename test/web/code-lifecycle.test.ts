// Issue #26 where a user meets it in the codes list and the dashboard, through a real browser
// on a real server: codes made over the API with a future start, a past end, a reached scan
// limit and a pause show their status badges, and the status filter narrows the list to the
// API's own answer; a code with a split shows its variants with scans and unique scans after
// scans through the short link, its rules by name, its destinations; a code with a schedule and
// a limit shows its timeline, its limit used, and the scans it turned away (not in its scans).
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const TZ = 'Europe/Berlin';
const DAY = 86_400_000;
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36';
const DESKTOP = 'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36';

interface Item {
  id: string;
  code: string;
  title: string;
  status: string;
  capCount: number;
  maxScans: number | null;
  rules: { id: string; name?: string }[];
}
interface Row {
  value: string;
  scans: number;
  uniqueScans?: number;
}
interface Stats {
  totals: { scansInRange: number };
  breakdown: { rule: Row[]; variant: Row[]; destination: Row[] };
  blocked: Record<'scheduled' | 'expired' | 'capped' | 'passwordRequired' | 'passwordFailed', number>;
}

const codes = {} as Record<'plain' | 'scheduled' | 'expired' | 'capped' | 'paused' | 'locked' | 'split', Item>;
const iphoneVisitors = 10;

const suite = useBrowserSuite({
  db: 'lifecycle.db',
  env: { TRUST_PROXY: 'true' },
  account: { viewer: false },
  seed: async () => {
    const now = Date.now();
    codes.plain = await create({ title: 'Plain flyer', url: 'https://example.com/plain' });
    codes.expired = await create({
      title: 'Summer sale',
      url: 'https://example.com/summer',
      activatesAt: new Date(now - 30 * DAY).toISOString(),
      expiresAt: new Date(now - 2 * DAY).toISOString(),
    });
    codes.capped = await create({ title: 'First caller wins', url: 'https://example.com/prize', maxScans: 1 });
    codes.paused = await create({ title: 'Old menu', url: 'https://example.com/old' });
    await v1(`/qr/${codes.paused.id}`, { method: 'PATCH', body: JSON.stringify({ active: false }) });
    codes.locked = await create({ title: 'Staff only', url: 'https://example.com/staff', password: 'staff password 1' });
    codes.split = await create({
      title: 'App poster',
      url: 'https://example.com/app',
      rules: [
        {
          name: 'iPhones',
          conditions: [{ type: 'os', op: 'in', values: ['ios'] }],
          split: [
            { destination: 'https://example.com/app/a', weight: 50 },
            { destination: 'https://example.com/app/b', weight: 50 },
          ],
        },
        { name: 'Android', conditions: [{ type: 'os', op: 'in', values: ['android'] }], destination: 'https://example.com/android' },
      ],
    });
    codes.scheduled = await create({
      title: 'Launch week',
      url: 'https://example.com/launch',
      activatesAt: new Date(now + 3 * DAY).toISOString(),
      expiresAt: new Date(now + 10 * DAY).toISOString(),
      maxScans: 500,
    });

    // The one scan the cap allows, then one it turns away; one before the launch, one after the sale.
    expect(await scan(codes.capped.code, IPHONE, '198.51.100.1')).toBe(302);
    expect(await scan(codes.capped.code, IPHONE, '198.51.100.2')).toBe(410);
    expect(await scan(codes.scheduled.code, IPHONE, '198.51.100.3')).toBe(404);
    expect(await scan(codes.expired.code, IPHONE, '198.51.100.4')).toBe(410);
    // iPhones from different addresses (different visitors) go to either variant; one comes back.
    for (let i = 0; i < iphoneVisitors; i++) expect(await scan(codes.split.code, IPHONE, `203.0.113.${i + 1}`)).toBe(302);
    expect(await scan(codes.split.code, IPHONE, '203.0.113.1')).toBe(302);
    expect(await scan(codes.split.code, ANDROID, '203.0.113.50')).toBe(302);
    expect(await scan(codes.split.code, DESKTOP, '203.0.113.51')).toBe(302);
  },
});

async function v1<T>(p: string, init: RequestInit = {}): Promise<T> {
  const res = await fetch(`${suite.url}/v1${p}`, {
    ...init,
    headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.account.key}`, ...init.headers },
  });
  expect(res.status, `${p}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}
const create = async (body: object): Promise<Item> =>
  (await v1<{ item: Item }>('/qr', { method: 'POST', body: JSON.stringify(body) })).item;
const item = async (c: Item): Promise<Item> => (await v1<{ item: Item }>(`/qr/${c.id}`)).item;

async function scan(code: string, ua: string, ip: string): Promise<number> {
  const res = await fetch(`${suite.url}/r/${code}`, { redirect: 'manual', headers: { 'user-agent': ua, 'x-forwarded-for': ip } });
  return res.status;
}

const row = (page: Page, title: string) => page.locator('.code-row', { has: page.getByRole('link', { name: title, exact: true }) });
const rowTitles = (page: Page) => page.locator('.code-row .code-row__name').allTextContents();

async function statsPage(c: Item) {
  const signed = await suite.signIn(OWNER, { timezoneId: TZ });
  await signed.page.goto(`${suite.url}/app/codes/${c.id}`);
  await signed.page.locator('.totals').waitFor();
  return signed;
}

describe.skipIf(!HAVE_CHROMIUM)('lifecycle and rules in the codes list and the dashboard', () => {
  it('shows each code’s status badge and its password and rules marks', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER, { timezoneId: TZ });
    await page.locator('.code-row').first().waitFor();
    const expected: Array<[Item, string, RegExp]> = [
      [codes.plain, 'active', /^Active$/],
      [codes.scheduled, 'scheduled', /^Opens \w{3} \d{1,2}(, \d{4})?$/],
      [codes.expired, 'expired', /^Expired$/],
      [codes.capped, 'capped', /^Limit reached: 1 of 1$/],
      [codes.paused, 'paused', /^Paused$/],
      [codes.split, 'active', /^Active$/],
    ];
    for (const [c, status, text] of expected) {
      expect((await item(c)).status, c.title).toBe(status);
      const badge = row(page, c.title).locator('.status');
      expect(await badge.getAttribute('data-status'), c.title).toBe(status);
      expect(await badge.textContent(), c.title).toMatch(text);
    }
    // The scheduled badge names the day the code opens in the browser's zone (the year only when not this one).
    const opensAt = new Date(Date.now() + 3 * DAY);
    const year = (d: Date) => d.toLocaleDateString('en-US', { year: 'numeric', timeZone: TZ });
    const opens = opensAt.toLocaleDateString('en-US', {
      month: 'short',
      day: 'numeric',
      ...(year(opensAt) === year(new Date()) ? {} : { year: 'numeric' }),
      timeZone: TZ,
    });
    expect(await row(page, codes.scheduled.title).locator('.status').textContent()).toBe(`Opens ${opens}`);
    expect(await row(page, codes.locked.title).locator('[data-flag]').allTextContents()).toEqual(['Password']);
    expect(await row(page, codes.split.title).locator('[data-flag]').allTextContents()).toEqual(['2 rules']);
    expect(await row(page, codes.plain.title).locator('[data-flag]').count()).toBe(0);
    await checkPage(page, problems, 'lifecycle-list');
    await context.close();
  });

  it('narrows the list to each status as the API does, kept in the address', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER, { timezoneId: TZ });
    await page.locator('.code-row').first().waitFor();
    for (const status of ['scheduled', 'expired', 'capped', 'paused', 'active']) {
      await page.getByLabel('Status').selectOption(status);
      await page.waitForURL(new RegExp(`\\?status=${status}$`));
      const api = await v1<{ items: Item[] }>(`/qr?status=${status}`);
      expect(api.items.length, status).toBeGreaterThan(0);
      await expect.poll(() => rowTitles(page), { message: status }).toEqual(api.items.map((i) => i.title));
      expect(await page.locator('.code-row .status').evaluateAll((b) => b.map((e) => (e as HTMLElement).dataset.status))).toEqual(
        api.items.map(() => status),
      );
    }
    await page.reload();
    await expect.poll(() => page.getByLabel('Status').inputValue()).toBe('active');
    await page.getByLabel('Status').selectOption('capped');
    await expect.poll(() => rowTitles(page)).toEqual([codes.capped.title]);
    await checkPage(page, problems, 'lifecycle-list-capped');
    await context.close();
  });

  it('a code resumed under "Paused" leaves the list, and says it is expired when its end has passed', { timeout: 120_000 }, async () => {
    const gone = await create({
      title: `Ended ${Date.now().toString(36)}`,
      url: 'https://example.com/ended',
      expiresAt: new Date(Date.now() - DAY).toISOString(),
    });
    await v1(`/qr/${gone.id}`, { method: 'PATCH', body: JSON.stringify({ active: false }) });
    const { context, page } = await suite.signIn(OWNER, { timezoneId: TZ });
    await page.goto(`${suite.url}/app/codes?status=paused`);
    await expect.poll(() => row(page, gone.title).count()).toBe(1);
    await page.getByRole('button', { name: `Resume ${gone.title}` }).click();
    await expect.poll(() => row(page, gone.title).count()).toBe(0);
    expect((await item(gone)).status).toBe('expired');
    await page.getByLabel('Status').selectOption('expired');
    await expect.poll(() => row(page, gone.title).locator('.status').textContent()).toBe('Expired');
    await context.close();
  });

  it('shows a split’s variants with scans and unique scans, the rules by name and the destinations', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await statsPage(codes.split);
    const api = await v1<Stats>(`/qr/${codes.split.id}/stats?days=14&tz=${encodeURIComponent(TZ)}`);
    const rules = (await item(codes.split)).rules;
    const [iphones, android] = rules as [Item['rules'][number], Item['rules'][number]];

    // Variants: every row the API counts, scans and unique scans side by side; the returning
    // visitor makes one variant's scans exceed its unique scans.
    await page.locator('[data-breakdown="variants"] tbody tr').first().waitFor();
    const shown = await page.locator('[data-breakdown="variants"] tbody tr').evaluateAll((trs) =>
      trs.map((tr) => {
        const d = (tr as HTMLElement).dataset;
        return { value: d.variant ?? '', scans: Number(d.scans), uniqueScans: Number(d.uniqueScans) };
      }),
    );
    const byValue = (a: Row, b: Row) => a.value.localeCompare(b.value);
    expect(shown.filter((r) => r.scans > 0).sort(byValue)).toEqual([...api.breakdown.variant].sort(byValue));
    expect(shown.map((r) => r.value)).toEqual([`${iphones.id}#0`, `${iphones.id}#1`]);
    expect(shown.reduce((n, r) => n + r.scans, 0)).toBe(iphoneVisitors + 1);
    expect(shown.reduce((n, r) => n + r.uniqueScans, 0)).toBe(iphoneVisitors);
    const variants = page.locator('[data-breakdown="variants"]');
    expect(await variants.locator('h3').allTextContents()).toEqual(['iPhones']);
    expect(await variants.locator('.variants__dest').allTextContents()).toEqual(['https://example.com/app/a', 'https://example.com/app/b']);
    expect(await variants.locator('td[data-label="Weight"]').allTextContents()).toEqual(['50%', '50%']);

    // Rules by the names given them; the desktop visitor matched none.
    const ruleRows = await page
      .locator('[data-breakdown="rules"] .bars__row')
      .evaluateAll((rows) =>
        rows.map((r) => ({ value: (r as HTMLElement).dataset.value, scans: Number((r as HTMLElement).dataset.scans) })),
      );
    expect(ruleRows).toEqual(api.breakdown.rule);
    expect(Object.fromEntries(api.breakdown.rule.map((r) => [r.value, r.scans]))).toEqual({
      [iphones.id]: iphoneVisitors + 1,
      [android.id]: 1,
      none: 1,
    });
    const names = await page.locator('[data-breakdown="rules"] .bars__name').allTextContents();
    expect(names.sort()).toEqual(['Android', 'No rule (the code’s own destination)', 'iPhones']);
    const dests = await page
      .locator('[data-breakdown="destinations"] .bars__row')
      .evaluateAll((rows) =>
        rows.map((r) => ({ value: (r as HTMLElement).dataset.value, scans: Number((r as HTMLElement).dataset.scans) })),
      );
    expect(dests).toEqual(api.breakdown.destination);
    expect(dests.map((d) => d.value)).toContain('https://example.com/android');
    // The breakdowns' CSV carries the rules, the variants with their unique scans, and the destinations.
    const csv = page.getByRole('link', { name: /^Breakdowns for the range, with rules, variants and destinations/ });
    const href = (await csv.getAttribute('href')) ?? '';
    const text = await (await fetch(new URL(href, suite.url), { headers: { authorization: `Bearer ${suite.account.key}` } })).text();
    expect(text).toContain(`variant_unique,${iphones.id}#0,`);
    expect(text).toContain(`rule,${android.id},1`);
    // No schedule, no limit, no password: no timeline and no blocked-scans panel.
    expect(await page.locator('.lifecycle, .blocked').count()).toBe(0);
    await checkPage(page, problems, 'lifecycle-split-stats');
    await viewportShots(page, 'lifecycle-split-variants', variants);
    await context.close();
  });

  it('shows a scheduled code’s timeline, its limit and the scans it turned away', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await statsPage(codes.scheduled);
    const api = await v1<Stats>(`/qr/${codes.scheduled.id}/stats?days=14&tz=${encodeURIComponent(TZ)}`);
    expect(api.blocked.scheduled).toBe(1);
    expect(api.totals.scansInRange).toBe(0);
    expect(await page.locator('.crumbs .status').getAttribute('data-status')).toBe('scheduled');
    const timeline = page.locator('.lifecycle');
    expect(await timeline.locator('[data-moment]').evaluateAll((li) => li.map((l) => (l as HTMLElement).dataset.moment))).toEqual([
      'created',
      'now',
      'opens',
      'expires',
    ]);
    expect(await timeline.locator('[data-moment="opens"]').textContent()).toMatch(/^Opens .*\(in 3 days\)$/);
    expect(await timeline.locator('.cap').getAttribute('data-max-scans')).toBe('500');
    expect(await timeline.locator('.cap__label').textContent()).toBe('Scan limit: 0 of 500 scans used');
    const blocked = page.locator('.blocked');
    expect(await blocked.textContent()).toMatch(/not counted/);
    expect(await blocked.locator('[data-blocked="scheduled"]').getAttribute('data-count')).toBe('1');
    await checkPage(page, problems, 'lifecycle-scheduled-stats');
    await viewportShots(page, 'lifecycle-scheduled-timeline', timeline);
    await context.close();
  });

  it('shows a full code’s limit reached and the scan it refused, and a plain code says it has no rules', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await statsPage(codes.capped);
    const api = await v1<Stats>(`/qr/${codes.capped.id}/stats?days=14&tz=${encodeURIComponent(TZ)}`);
    expect(api.blocked.capped).toBeGreaterThanOrEqual(1);
    expect(await page.locator('.crumbs .status').textContent()).toBe('Limit reached: 1 of 1');
    expect(await page.locator('.cap__label').textContent()).toBe('Scan limit: 1 of 1 scans used (reached)');
    expect(await page.locator('[data-blocked="capped"]').getAttribute('data-count')).toBe(String(api.blocked.capped));
    expect(await numberIn(page, '[data-total="scansInRange"] .totals__value')).toBe(1);
    // A limit without dates: no line to draw, the limit alone.
    expect(await page.locator('.timeline').count()).toBe(0);
    expect(await page.locator('[data-breakdown="rules"]').textContent()).toMatch(/no rules/);
    expect(await page.locator('[data-breakdown="variants"]').textContent()).toMatch(/No split test/);
    await checkPage(page, problems, 'lifecycle-capped-stats');

    await page.goto(`${suite.url}/app/codes/${codes.expired.id}`);
    await page.locator('.lifecycle [data-moment="expires"]').waitFor();
    expect(await page.locator('.lifecycle [data-moment="expires"]').textContent()).toMatch(/^Expired .*\(2 days ago\)$/);
    expect(await page.locator('[data-blocked="expired"]').getAttribute('data-count')).toBe('1');
    await checkPage(page, problems, 'lifecycle-expired-stats');
    await context.close();
  });
});

const numberIn = async (page: Page, selector: string) => Number(((await page.locator(selector).textContent()) ?? '').replace(/[^\d]/g, ''));
