// The scan dashboard through a real browser on a real server: scans recorded through the
// short link with real phone user agents and a bot, then the per-code page and the account
// overview checked against the API's own numbers (totals, chart points, breakdown rows,
// coloured countries, CSV downloads), the range changed, recent scans refreshed live.
import fs from 'node:fs';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, axeViolations, checkPage, screenshots, useBrowserSuite } from '../support/browser.ts';

const TZ = 'Europe/Berlin';
const IPHONE =
  'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const ANDROID = 'Mozilla/5.0 (Linux; Android 14; Pixel 8) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Mobile Safari/537.36';
const SAMSUNG =
  'Mozilla/5.0 (Linux; Android 14; SM-S921B) AppleWebKit/537.36 (KHTML, like Gecko) SamsungBrowser/25.0 Chrome/121.0.0.0 Mobile Safari/537.36';
const IPAD =
  'Mozilla/5.0 (iPad; CPU OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1';
const DESKTOP =
  'Mozilla/5.0 (Windows NT 10.0; Win64; x64) AppleWebKit/537.36 (KHTML, like Gecko) Chrome/125.0.0.0 Safari/537.36 Edg/125.0.0.0';
const WHATSAPP = 'WhatsApp/2.23.20.0 A';

let menu: { id: string; code: string };
let poster: { id: string; code: string };
const suite = useBrowserSuite({
  db: 'dash.db',
  env: { COUNTRY_HEADER: 'cf-ipcountry', TRUST_PROXY: 'true' },
  account: { viewer: false },
  seed: async () => {
    menu = await create('Spring menu');
    poster = await create('Poster');
    await scan(menu.code, IPHONE, '198.51.100.1', 'DE');
    await scan(menu.code, IPHONE, '198.51.100.1', 'DE'); // the same visitor again: a scan, not a unique one
    await scan(menu.code, IPHONE, '198.51.100.2', 'DE', 'https://www.instagram.com/p/x');
    await scan(menu.code, ANDROID, '198.51.100.3', 'US');
    await scan(menu.code, SAMSUNG, '198.51.100.4', 'US', 'https://t.co/abc');
    await scan(menu.code, DESKTOP, '198.51.100.5', 'FR');
    await scan(menu.code, WHATSAPP, '198.51.100.6', 'DE'); // a link preview: a bot scan
    await scan(poster.code, IPAD, '198.51.100.7', 'GB');
  },
});

interface Breakdown {
  value: string;
  scans: number;
}
interface CodeStats {
  from: string;
  to: string;
  totals: { scans: number; uniqueScans: number; scansInRange: number; uniqueScansInRange: number; botScans: number };
  daily: { date: string; scans: number; uniqueScans: number }[];
  breakdown: Record<'device' | 'os' | 'browser' | 'country' | 'referrer', Breakdown[]>;
  recent: unknown[];
}
interface AccountStats extends Omit<CodeStats, 'totals' | 'recent'> {
  totals: { codes: number; scansInRange: number; uniqueScansInRange: number; botScansInRange: number };
  topCodes: { id: string; code: string; title: string; scans: number }[];
}

const v1 = async <T>(p: string): Promise<T> => {
  const res = await fetch(`${suite.url}/v1${p}`, { headers: { authorization: `Bearer ${suite.account.key}` } });
  expect(res.status, p).toBe(200);
  return (p.includes('.csv') ? await res.text() : await res.json()) as T;
};

async function scan(code: string, ua: string, ip: string, country: string, referer?: string): Promise<void> {
  const res = await fetch(`${suite.url}/r/${code}`, {
    redirect: 'manual',
    headers: { 'user-agent': ua, 'x-forwarded-for': ip, 'cf-ipcountry': country, ...(referer ? { referer } : {}) },
  });
  expect(res.status).toBe(302);
}

/** Sets the instance up through its first-run link and returns an API key made with the session. */
async function create(title: string): Promise<{ id: string; code: string }> {
  const res = await fetch(`${suite.url}/v1/qr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.account.key}` },
    body: JSON.stringify({ title, url: `https://example.com/${encodeURIComponent(title)}` }),
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { item: { id: string; code: string } }).item;
}

function newPage(): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  return suite.signIn(OWNER, { timezoneId: TZ, acceptDownloads: true });
}

const numberIn = async (page: Page, selector: string) => Number(((await page.locator(selector).textContent()) ?? '').replace(/[^\d]/g, ''));

/** The breakdown rows a panel shows, as {value, scans}. */
async function barRows(page: Page, panel: string): Promise<Breakdown[]> {
  return page
    .locator(`[data-breakdown="${panel}"] .bars__row`)
    .evaluateAll((rows) =>
      rows.map((r) => ({ value: (r as HTMLElement).dataset.value as string, scans: Number((r as HTMLElement).dataset.scans) })),
    );
}

/**
 * What Chromium's accessibility tree says of an element: its role and name, and every node it
 * exposes inside it (an image's insides should be none: they would be read or browsed).
 */
async function accessible(page: Page, selector: string): Promise<{ role: string; name: string; inside: string[] }> {
  const cdp = await page.context().newCDPSession(page);
  try {
    const { result } = await cdp.send('Runtime.evaluate', { expression: `document.querySelector(${JSON.stringify(selector)})` });
    const { node } = await cdp.send('DOM.describeNode', { objectId: result.objectId });
    const { nodes } = await cdp.send('Accessibility.getFullAXTree');
    const byId = new Map(nodes.map((n) => [n.nodeId, n]));
    const root = nodes.find((n) => n.backendDOMNodeId === node.backendNodeId);
    if (!root) throw new Error(`${selector} is not in the accessibility tree`);
    const inside: string[] = [];
    const walk = (ids: string[] | undefined) => {
      for (const id of ids ?? []) {
        const n = byId.get(id);
        if (!n) continue;
        if (!n.ignored) inside.push(`${String(n.role?.value)}: ${String(n.name?.value ?? '')}`);
        walk(n.childIds);
      }
    };
    walk(root.childIds);
    return { role: String(root.role?.value), name: String(root.name?.value ?? ''), inside };
  } finally {
    await cdp.detach();
  }
}

describe.skipIf(!HAVE_CHROMIUM)('the scan dashboard in a browser', () => {
  it("shows a code's totals, chart, breakdowns and map as the API counts them, for each range", { timeout: 120_000 }, async () => {
    const { context, page, problems } = await newPage();
    await page.getByRole('link', { name: 'Spring menu', exact: true }).click();
    await page.waitForURL(new RegExp(`/app/codes/${menu.id}$`));
    await page.locator('.daily-table tbody tr').first().waitFor({ state: 'attached' });

    const api = await v1<CodeStats>(`/qr/${menu.id}/stats?days=30&tz=${encodeURIComponent(TZ)}`);
    expect(api.totals).toMatchObject({ scans: 6, uniqueScans: 5, botScans: 1, scansInRange: 6 });
    expect(await numberIn(page, '[data-total="scansInRange"] .totals__value')).toBe(api.totals.scansInRange);
    expect(await numberIn(page, '[data-total="uniqueScansInRange"] .totals__value')).toBe(api.totals.uniqueScansInRange);
    expect(await numberIn(page, '[data-total="botScans"] .totals__value')).toBe(api.totals.botScans);
    expect(await page.locator('[data-total="uniqueScansInRange"]').textContent()).toMatch(/same phone/);
    expect(await page.locator('[data-total="botScans"]').textContent()).toMatch(/link previews/);

    // The chart's points: the table beside it, and the value uPlot shows on hover over today.
    const rows = await page
      .locator('.daily-table tbody tr')
      .evaluateAll((trs) => trs.map((tr) => Array.from(tr.querySelectorAll('td')).map((td) => td.textContent)));
    expect(rows).toEqual(api.daily.map((d) => [d.date, String(d.scans), String(d.uniqueScans)]));
    const over = page.locator('.chart .u-over');
    await over.scrollIntoViewIfNeeded();
    const box = (await over.boundingBox())!;
    await page.mouse.move(box.x + box.width / 2, box.y + box.height / 2);
    await page.mouse.move(box.x + box.width - 2, box.y + box.height / 2, { steps: 4 });
    await expect
      .poll(() => page.locator('.chart .u-legend .u-series').nth(1).locator('.u-value').textContent())
      .toBe(String(api.daily.at(-1)!.scans));

    for (const [panel, dim] of [
      ['devices', 'device'],
      ['operating systems', 'os'],
      ['browsers', 'browser'],
      ['countries', 'country'],
      ['referrers', 'referrer'],
    ] as const) {
      expect(await barRows(page, panel), panel).toEqual(api.breakdown[dim]);
    }

    // The map: each country with scans is coloured, the busiest in the darkest step.
    await page.locator('.map path[data-country="DE"]').waitFor();
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.locator('.map').screenshot({ path: '/tmp/dash/map-el.png' });
    await page.setViewportSize({ width: 390, height: 844 });
    const coloured = await page
      .locator('.map path[data-scans]')
      .evaluateAll((ps) =>
        ps.map((p) => ({ value: (p as SVGPathElement).dataset.country as string, scans: Number((p as SVGPathElement).dataset.scans) })),
      );
    expect(coloured.sort((a, b) => b.scans - a.scans || a.value.localeCompare(b.value))).toEqual(api.breakdown.country);
    expect(await page.locator('.map path[data-country="DE"]').getAttribute('class')).toContain('map__l5');
    expect(await page.locator('.map__empty').count()).toBe(0);
    expect(await page.locator('.map path[data-country="FR"]').getAttribute('class')).toContain('map__l2');
    expect(await page.locator('.map path[data-country="CN"]').getAttribute('class')).toContain('map__l0');
    await checkPage(page, problems, 'code-stats-30');

    await page.getByRole('button', { name: '7 days' }).click();
    await expect.poll(() => page.locator('.daily-table tbody tr').count()).toBe(7);
    expect(await page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    const week = await v1<CodeStats>(`/qr/${menu.id}/stats?days=7&tz=${encodeURIComponent(TZ)}`);
    expect(await page.locator('.daily-table tbody tr td:first-child').allTextContents()).toEqual(week.daily.map((d) => d.date));
    await page.getByRole('button', { name: '90 days' }).click();
    await expect.poll(() => page.locator('.daily-table tbody tr').count()).toBe(90);
    await context.close();
  });

  it('the map and the chart are each one image with a one-sentence summary, their insides hidden from screen readers', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await newPage();
    await page.goto(`${suite.url}/app/codes/${menu.id}`);
    await page.locator('.map path[data-country="DE"]').waitFor();
    await page.locator('.chart .u-legend').waitFor();
    const map = await accessible(page, '.map');
    const chart = await accessible(page, '.chart');
    expect(map.role).toBe('image');
    expect(chart.role).toBe('image');
    expect(map.inside.length, 'nodes exposed inside the map').toBe(0);
    expect(chart.inside, 'nodes exposed inside the chart').toEqual([]);
    // Human scans only (the WhatsApp preview is a bot): Germany 3, the United States 2, France 1.
    expect(map.name).toBe(
      'World map of scans: most from Germany (3), then United States (2) and France (1). Every country is in the Countries list.',
    );
    expect(chart.name).toMatch(
      /^Scans per day, \w+ \d+ to \w+ \d+: 6 scans, busiest \w+ \d+ with 6\. The numbers are in the table below\.$/,
    );
    // The mouse still gets each country's tooltip.
    expect(await page.locator('.map path[data-country="DE"] title').textContent()).toBe('Germany: 3 scans');
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('downloads the CSV the API gives', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage();
    await page.goto(`${suite.url}/app/codes/${menu.id}`);
    for (const [label, part] of [
      [/Daily scans/, 'daily'],
      [/Breakdowns/, 'breakdown'],
    ] as const) {
      const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: label }).click()]);
      const text = fs.readFileSync((await download.path())!, 'utf8');
      expect(text).toBe(await v1<string>(`/qr/${menu.id}/stats.csv?days=30&tz=${encodeURIComponent(TZ)}&part=${part}`));
      expect(download.suggestedFilename()).toMatch(new RegExp(`^qrtrack-${menu.code}-${part}-`));
    }
    await context.close();
  });

  it('adds a new scan to recent scans and the totals while the page is open', { timeout: 60_000 }, async () => {
    const { context, page } = await newPage();
    await page.goto(`${suite.url}/app/codes/${poster.id}`);
    await page.locator('.recent-table tbody tr').first().waitFor();
    expect(await page.locator('.recent-table tbody tr').count()).toBe(1);
    await scan(poster.code, ANDROID, '198.51.100.8', 'NL');
    await expect.poll(() => page.locator('.recent-table tbody tr').count(), { timeout: 25_000 }).toBe(2);
    await expect.poll(() => numberIn(page, '[data-total="scansInRange"] .totals__value'), { timeout: 10_000 }).toBe(2);
    expect(await page.locator('.recent-table tbody tr').first().textContent()).toMatch(/Android/);
    // The news is said once; the time of each 10-second check is shown but in no live region,
    // or a screen reader would read it every 10 s.
    await expect.poll(() => page.locator('#announcer').textContent()).toBe('1 new scan.');
    expect(await page.locator('.panel', { has: page.getByRole('heading', { name: 'Recent scans' }) }).textContent()).toMatch(/checked at/);
    const live = await page.evaluate(() =>
      [...document.querySelectorAll('[aria-live], [role="status"], [role="alert"], [role="log"]')]
        .map((el) => el.textContent ?? '')
        .filter((t) => /checked at/.test(t)),
    );
    expect(live).toEqual([]);
    await context.close();
  });

  it('shows the account overview: series, top codes, countries and devices as the API counts them', { timeout: 90_000 }, async () => {
    const { context, page, problems } = await newPage();
    await page.getByRole('link', { name: 'Overview', exact: true }).click();
    await page.waitForURL(/\/app\/overview$/);
    await page.locator('.top-codes li').first().waitFor();
    const api = await v1<AccountStats>(`/stats?days=30&tz=${encodeURIComponent(TZ)}`);
    expect(await numberIn(page, '[data-total="scansInRange"] .totals__value')).toBe(api.totals.scansInRange);
    expect(await numberIn(page, '[data-total="botScansInRange"] .totals__value')).toBe(api.totals.botScansInRange);
    const top = await page
      .locator('.top-codes li')
      .evaluateAll((lis) =>
        lis.map((li) => ({ code: (li as HTMLElement).dataset.code, scans: Number((li as HTMLElement).dataset.scans) })),
      );
    expect(top).toEqual(api.topCodes.map((c) => ({ code: c.code, scans: c.scans })));
    expect(top[0]).toEqual({ code: menu.code, scans: 6 });
    expect(await barRows(page, 'countries')).toEqual(api.breakdown.country);
    expect(await barRows(page, 'devices')).toEqual(api.breakdown.device);
    const rows = await page.locator('.daily-table tbody tr td:nth-child(2)').allTextContents();
    expect(rows.map(Number)).toEqual(api.daily.map((d) => d.scans));
    await page.locator('.map path[data-country="GB"]').waitFor();
    expect(await page.locator('.map path[data-scans]').count()).toBe(api.breakdown.country.filter((c) => c.value !== 'unknown').length);
    await checkPage(page, problems, 'overview-30');

    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: /Top 100 codes/ }).click()]);
    expect(fs.readFileSync((await download.path())!, 'utf8')).toBe(
      await v1<string>(`/stats.csv?days=30&tz=${encodeURIComponent(TZ)}&part=top`),
    );

    await page.getByRole('button', { name: '14 days' }).click();
    await expect.poll(() => page.locator('.daily-table tbody tr').count()).toBe(14);
    await context.close();
  });

  it('stays readable in dark mode', { timeout: 60_000 }, async () => {
    const { context, page } = await suite.signIn(OWNER, { timezoneId: TZ, dark: true });
    await page.goto(`${suite.url}/app/codes/${menu.id}`);
    await page.locator('.map path[data-country="DE"]').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'code-stats-dark');
    await context.close();
  });
});
