// The studio at its edges, through a real browser: an invalid field of every input type gets
// the same red border, and on a phone the selected content tab is in view (and the tab row
// shows that it scrolls) when an existing code opens and when the kind changes.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-edges.db', account: { viewer: false } });

async function createCode(body: object): Promise<string> {
  const res = await fetch(`${suite.url}/v1/qr`, {
    method: 'POST',
    headers: { authorization: `Bearer ${suite.account.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { item: { id: string } }).item.id;
}

/** The border of a field, as drawn. */
function border(page: Page, selector: string): Promise<{ color: string; width: string }> {
  return page.locator(selector).evaluate((el) => {
    const s = getComputedStyle(el);
    return { color: s.borderTopColor, width: s.borderTopWidth };
  });
}

/** Whether the selected tab lies wholly inside the visible part of the tab row. */
function selectedTabInView(page: Page): Promise<boolean> {
  return page.locator('.kind-tabs').evaluate((row) => {
    const tab = row.querySelector('[aria-selected="true"]');
    if (!tab) return false;
    const r = row.getBoundingClientRect();
    const t = tab.getBoundingClientRect();
    return t.left >= r.left - 0.5 && t.right <= r.right + 0.5;
  });
}

/** Which edges of the tab row have more tabs beyond them, as the row shows it. */
function hiddenEdges(page: Page): Promise<string | null> {
  return page.locator('.kind-tabs-frame').getAttribute('data-more');
}

describe.skipIf(!HAVE_CHROMIUM)('the studio at its edges', () => {
  it('draws the same red border around an invalid web address, phone number and number as around an invalid text field', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    await page.getByRole('button', { name: 'Create code' }).first().click();
    // The empty title (type=text) and the empty web address (type=url) are both marked.
    await expect.poll(() => page.locator('#f-url').getAttribute('aria-invalid')).toBe('true');
    const reference = await border(page, '#f-title');
    expect(reference.width).toBe('2px');
    expect(await border(page, '#f-url')).toEqual(reference);
    await checkPage(page, problems, 'studio-invalid-url');

    await page.getByRole('tab', { name: 'WhatsApp' }).click();
    await page.getByLabel('WhatsApp number').fill('12');
    await expect.poll(() => page.locator('#f-waNumber').getAttribute('aria-invalid')).toBe('true');
    expect(await border(page, '#f-waNumber')).toEqual(reference);

    // A design number out of its range (the resolution starts at 500 px).
    await page.locator('#d-resolution').evaluate((el) => void (el.closest('details')!.open = true));
    await page.locator('#d-resolution').fill('50');
    await expect.poll(() => page.locator('#d-resolution').getAttribute('aria-invalid')).toBe('true');
    expect(await border(page, '#d-resolution')).toEqual(reference);
    await context.close();
  });

  it('on a phone, every content tab is in view (Text and Email too), the selected one marked, and the keyboard moves between them', {
    timeout: 120_000,
  }, async () => {
    const id = await createCode({ title: 'Write to us', contentType: 'email', emailTo: 'hello@example.com', emailSubject: 'Hi' });
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/${id}/edit`);
    await page.getByRole('tab', { name: 'Email', selected: true }).waitFor();
    await expect.poll(() => selectedTabInView(page)).toBe(true);
    // Six segments in a grid: none beyond the window's edge, nothing to scroll to.
    const rights = await page.locator('.kind-tabs__tab').evaluateAll((els) => els.map((e) => e.getBoundingClientRect().right));
    expect(rights).toHaveLength(6);
    expect(Math.max(...rights)).toBeLessThanOrEqual(390);
    expect(await hiddenEdges(page)).toBe('');
    await checkPage(page, problems, 'studio-tabs-email');

    // Keyboard: Right from Email wraps to URL.
    await page.getByRole('tab', { name: 'Email' }).press('ArrowRight');
    await page.getByRole('tab', { name: 'URL', selected: true }).waitFor();
    await expect.poll(() => selectedTabInView(page)).toBe(true);
    await page.locator('.kind-tabs').scrollIntoViewIfNeeded();
    await viewportShots(page, 'studio-tabs-phone', page.locator('.kind-tabs'));
    await checkPage(page, problems, 'studio-tabs-link');

    // On a wide screen the tabs are one row again, and no edge claims more.
    await page.setViewportSize({ width: 1280, height: 800 });
    const tops = await page.locator('.kind-tabs__tab').evaluateAll((els) => els.map((e) => (e as HTMLElement).offsetTop));
    expect(new Set(tops).size).toBe(1);
    await expect.poll(() => hiddenEdges(page)).toBe('');
    await context.close();
  });
});
