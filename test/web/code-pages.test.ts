// The codes list and a code's dashboard in the cases a usability review found rough: the
// selection bar in reach after ticking codes far down a phone's list, a code leaving a
// status filter it no longer matches, a missing code's dashboard, the dashboard's link to
// the editor and its range kept in the address.
import { randomUUID } from 'node:crypto';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, SHOTS_DIR, VIEWER, axeViolations, checkPage, screenshots, useBrowserSuite } from '../support/browser.ts';

interface Item {
  id: string;
  code: string;
  title: string;
}

const suite = useBrowserSuite({ db: 'code-pages.db' });

const v1 = async <T>(p: string, body?: object): Promise<T> => {
  const res = await fetch(`${suite.url}/v1${p}`, {
    method: body === undefined ? 'GET' : 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.account.key}` },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${p}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as T;
};

/** Codes made at once, returned in the order given; titles unique to one try (tests get retried on a starved machine). */
async function codes(stem: string, n: number): Promise<Item[]> {
  const unique = `${stem} ${Date.now().toString(36)}`;
  const r = await v1<{ items: { item: Item }[] }>('/qr/batch', {
    items: Array.from({ length: n }, (_, i) => ({ title: `${unique} ${String(i + 1).padStart(2, '0')}`, url: `https://example.com/${i}` })),
  });
  return r.items.map((x) => x.item);
}

const rowTitles = (page: Page) => page.locator('.code-row .code-row__name').allTextContents();

describe.skipIf(!HAVE_CHROMIUM)('the codes list and a code dashboard at their edges', () => {
  it('on a phone, the selection bar stays in view after ticking a code far down the list', { timeout: 120_000 }, async () => {
    const made = await codes('Long list', 12);
    const { context, page, problems } = await suite.signIn(OWNER);
    // Opened filtered: the first list shown is already these 12 (no half-loaded list for axe to see).
    await page.goto(`${suite.url}/app/codes?q=${encodeURIComponent(made[0]!.title.slice(0, -3))}`);
    await expect.poll(() => page.locator('.code-row').count()).toBe(12);
    const last = page.getByLabel(`Select ${made[0]!.title}`);
    await last.scrollIntoViewIfNeeded();
    await last.check();
    const bar = page.getByRole('region', { name: 'Selected codes' });
    await bar.waitFor();
    const box = await bar.boundingBox();
    expect(box!.y).toBeGreaterThanOrEqual(0);
    expect(box!.y + box!.height).toBeLessThanOrEqual(844);
    // The ticked code is not under the bar.
    const ticked = await last.boundingBox();
    expect(ticked!.y).toBeGreaterThanOrEqual(box!.y + box!.height);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'codelist-bar-in-view-390.png') });
    expect(await axeViolations(page)).toEqual([]);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a code resumed under "Paused" leaves the list, and one paused under "Active" too', { timeout: 120_000 }, async () => {
    const [a, b, c] = (await codes('Filter leaver', 3)) as [Item, Item, Item];
    await v1('/qr/bulk', { action: 'pause', ids: [a.id, b.id, c.id] });
    const stem = a.title.slice(0, -3);
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes?q=${encodeURIComponent(stem)}&status=paused`);
    await expect.poll(() => rowTitles(page)).toEqual([c.title, b.title, a.title]);
    await page.getByRole('button', { name: `Resume ${a.title}` }).click();
    await expect.poll(() => rowTitles(page)).toEqual([c.title, b.title]);
    expect(
      await page
        .getByRole('status')
        .filter({ hasText: `Resumed “${a.title}”` })
        .textContent(),
    ).toMatch(/no longer shown under “Paused”/);
    await checkPage(page, problems, 'codelist-resumed-left-paused');

    // A selection resumed at once leaves too, and is no longer selected.
    await page.getByLabel('Select all shown').check();
    await page.getByRole('region', { name: 'Selected codes' }).getByRole('button', { name: 'Resume' }).click();
    await page.getByText('No codes match these filters.').waitFor();
    expect(await page.getByRole('region', { name: 'Selected codes' }).count()).toBe(0);

    await page.getByLabel('Status').selectOption('active');
    await expect.poll(() => rowTitles(page)).toEqual([c.title, b.title, a.title]);
    await page.getByRole('button', { name: `Pause ${b.title}` }).click();
    await expect.poll(() => rowTitles(page)).toEqual([c.title, a.title]);

    // Without a status filter the row stays and shows its new status.
    await page.getByLabel('Status').selectOption('');
    await expect.poll(() => rowTitles(page)).toEqual([c.title, b.title, a.title]);
    await page.getByRole('button', { name: `Pause ${c.title}` }).click();
    await expect.poll(() => page.locator('.code-row .status').first().textContent()).toBe('Paused');
    expect(await rowTitles(page)).toEqual([c.title, b.title, a.title]);
    await context.close();
  });

  it("a missing code's dashboard says so as the edit page does, with nothing to act on", { timeout: 120_000 }, async () => {
    const { context, page } = await suite.signIn(OWNER);
    // A well-formed id of no code (404), and an address that holds no id at all (400).
    for (const id of [randomUUID(), 'no-such-code']) {
      await page.goto(`${suite.url}/app/codes/${id}`);
      await page.getByRole('alert').filter({ hasText: 'There is no such code in this account.' }).waitFor();
      expect(await page.getByRole('link', { name: 'Back to your codes' }).getAttribute('href')).toBe('/app/codes');
      expect(await page.getByText(/not found|UUID/i).count()).toBe(0);
      expect(await page.getByRole('group', { name: 'Range' }).count()).toBe(0);
      expect(await page.locator('.crumbs').count()).toBe(0);
      // The edit page says the same for both.
      await page.goto(`${suite.url}/app/codes/${id}/edit`);
      await page.getByText('There is no such code in this account.').waitFor();
    }
    // The 4xx the page read are logged by Chromium; only accessibility is checked here.
    expect(await axeViolations(page)).toEqual([]);
    await screenshots(page, 'code-stats-missing');
    await context.close();
  });

  it("a code's dashboard links to its editor and keeps the range in the address", { timeout: 120_000 }, async () => {
    const [item] = (await codes('Dashboard', 1)) as [Item];
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/${item.id}`);
    const edit = page.getByRole('link', { name: 'Edit', exact: true });
    expect(await edit.getAttribute('href')).toBe(`/app/codes/${item.id}/edit`);
    await page.getByRole('button', { name: '7 days' }).click();
    await page.waitForURL(new RegExp(`/app/codes/${item.id}\\?days=7$`));
    await expect.poll(() => page.locator('.daily-table tbody tr').count()).toBe(7);
    // A code without scans: the empty map says why it is empty; so it does when its scans come
    // from an address with no country (this server is asked on loopback).
    await expect.poll(() => page.locator('.map__empty').textContent()).toBe('No scans in this range.');
    const scanned = await fetch(`${suite.url}/r/${item.code}`, {
      redirect: 'manual',
      headers: {
        'user-agent':
          'Mozilla/5.0 (iPhone; CPU iPhone OS 17_5 like Mac OS X) AppleWebKit/605.1.15 (KHTML, like Gecko) Version/17.5 Mobile/15E148 Safari/604.1',
      },
    });
    expect(scanned.status).toBe(302);
    await page.reload();
    await expect
      .poll(() => page.locator('.map__empty').textContent())
      .toBe('No scan in this range has a known country (scans from local or private addresses have none).');
    await page.reload();
    await expect.poll(() => page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    await expect.poll(() => page.locator('.daily-table tbody tr').count()).toBe(7);
    await checkPage(page, problems, 'code-stats-7-days');
    // Back returns to the range before; an address with a range we do not offer shows 30 days.
    await page.getByRole('button', { name: '90 days' }).click();
    await page.waitForURL(/\?days=90$/);
    await page.goBack();
    await expect.poll(() => page.getByRole('button', { name: '7 days' }).getAttribute('aria-pressed')).toBe('true');
    await page.goto(`${suite.url}/app/codes/${item.id}?days=5`);
    await expect.poll(() => page.getByRole('button', { name: '30 days' }).getAttribute('aria-pressed')).toBe('true');
    await edit.click();
    await page.waitForURL(new RegExp(`/app/codes/${item.id}/edit$`));

    // The overview keeps its range the same way.
    await page.goto(`${suite.url}/app/overview?days=14`);
    await expect.poll(() => page.getByRole('button', { name: '14 days' }).getAttribute('aria-pressed')).toBe('true');
    await context.close();

    // A viewer cannot edit: no link to the editor.
    const viewer = await suite.signIn(VIEWER);
    await viewer.page.goto(`${suite.url}/app/codes/${item.id}`);
    await viewer.page.getByRole('button', { name: '30 days' }).waitFor();
    await viewer.page.locator('.crumbs code').waitFor();
    expect(await viewer.page.getByRole('link', { name: 'Edit', exact: true }).count()).toBe(0);
    await viewer.context.close();
  });
});
