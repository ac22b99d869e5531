// The studio's Schedule & limits panel, Rules editor and Test a visitor box, through a real
// browser and server at phone and desktop widths: a schedule, a cap and a password set and read
// back in the browser's zone, the password removed; two rules (one a split) added, a weights
// sum refused, reordered from the keyboard, saved, read back and tested with a described
// visitor; a server error naming a rule's path shown next to that rule.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { axeViolations, HAVE_CHROMIUM, OWNER, useBrowserSuite } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-rules.db', account: { viewer: false } });
const SHOTS = '/tmp/shots-studio';

interface StoredItem {
  id: string;
  activatesAt: string | null;
  expiresAt: string | null;
  maxScans: number | null;
  scanCapBasis: string;
  fallbackUrls: Record<string, string>;
  forwardQuery: boolean;
  utm: Record<string, string>;
  hasPassword: boolean;
  rules: Array<{
    id: string;
    name?: string;
    conditions: Array<{ type: string; op: string; values: string[] }>;
    destination?: string;
    split?: Array<{ destination: string; weight: number }>;
  }>;
}

async function v1<T>(method: string, p: string, body?: object): Promise<T> {
  const res = await fetch(`${suite.url}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${suite.account.key}`, 'content-type': 'application/json' },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBeLessThan(300);
  return (await res.json()) as T;
}

const stored = async (id: string) => (await v1<{ item: StoredItem }>('GET', `/qr/${id}`)).item;
const idOf = (page: Page) => /\/codes\/([0-9a-f-]{36})\/edit$/.exec(page.url())?.[1] ?? '';

/**
 * After an accessibility check, the whole page at the test's width into SHOTS, and the card
 * under `heading` in screen-high slices (a whole phone page is too tall to look at).
 */
async function shot(page: Page, name: string, heading: string): Promise<void> {
  expect(await axeViolations(page), `${name}: accessibility`).toEqual([]);
  fs.mkdirSync(SHOTS, { recursive: true });
  await page.screenshot({ path: path.join(SHOTS, `${name}.png`), fullPage: true });
  const box = await page.locator(`section:has(${heading})`).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return { y: r.top + scrollY, height: r.height, width: document.documentElement.clientWidth };
  });
  const slice = 800;
  for (let k = 0; k * slice < box.height; k++) {
    const clip = { x: 0, y: box.y + k * slice, width: box.width, height: Math.min(slice, box.height - k * slice) };
    await page.screenshot({ path: path.join(SHOTS, `${name}-${k + 1}.png`), fullPage: true, clip });
  }
}

async function studio(width: number, at: string) {
  // A zone with a summer time change in March: the dates below fall on both sides of it.
  const { context, page, problems } = await suite.signIn(OWNER, { timezoneId: 'Europe/Berlin' });
  await page.setViewportSize({ width, height: width < 720 ? 844 : 900 });
  await page.goto(`${suite.url}/app/codes/${at}`);
  await page.locator('.preview__img').waitFor();
  return { page, problems, close: () => context.close() };
}

const focusedText = (page: Page) =>
  page.evaluate(() => document.activeElement?.getAttribute('aria-label') ?? document.activeElement?.id ?? '');

describe.skipIf(!HAVE_CHROMIUM).each([390, 1280])('the studio’s schedule, rules and visitor test at %i px', (width) => {
  it('sets a schedule, a scan cap, fallbacks, UTM and a password, reads them back, then removes the password', {
    timeout: 180_000,
  }, async () => {
    const { page, problems, close } = await studio(width, 'new');
    await page.getByLabel('Title', { exact: true }).fill(`Spring sale ${width}`);
    await page.getByRole('textbox', { name: 'Web address', exact: true }).fill('example.com/sale');
    expect(await page.locator('#schedule-zone').textContent()).toContain('Europe/Berlin');
    await page.getByLabel('Starts working at (optional)').fill('2030-03-01T09:00');
    await page.getByLabel('Stops working at (optional)').fill('2030-03-31T18:00');
    await page.getByLabel('Stop after this many scans (optional)').fill('500');
    await page.getByLabel(/Each person once a day/).check();
    await page.getByLabel('After it stops working (optional)').fill('example.com/over');
    await page.getByLabel('Pass the visitor’s query string on').uncheck();
    await page.getByLabel('utm_campaign (optional)').fill('spring');
    const password = page.getByLabel('Protect with a password (optional)');
    await password.fill('short');
    await page.getByLabel('utm_source (optional)').focus();
    await expect.poll(() => page.locator('#f-password-error').textContent()).toBe('Must be 8 to 128 characters (now 5)');
    await password.fill('open sesame 42');
    await expect.poll(() => page.locator('#f-password-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);

    // The code is not open yet, and the panel says so in words.
    await page.getByText('Not open yet: the short link says when it opens').waitFor();
    const item = await stored(idOf(page));
    // Read in Berlin: 09:00 on 1 March is 08:00 UTC (winter), 18:00 on 31 March 16:00 UTC (summer).
    expect(Date.parse(item.activatesAt ?? '')).toBe(Date.parse('2030-03-01T08:00:00Z'));
    expect(Date.parse(item.expiresAt ?? '')).toBe(Date.parse('2030-03-31T16:00:00Z'));
    expect(item).toMatchObject({
      maxScans: 500,
      scanCapBasis: 'unique',
      fallbackUrls: { expired: 'https://example.com/over' },
      forwardQuery: false,
      utm: { campaign: 'spring' },
      hasPassword: true,
    });

    await page.reload();
    await page.locator('.preview__img').waitFor();
    expect(await page.getByLabel('Starts working at (optional)').inputValue()).toBe('2030-03-01T09:00');
    expect(await page.getByLabel('Stops working at (optional)').inputValue()).toBe('2030-03-31T18:00');
    expect(await page.getByLabel('Stop after this many scans (optional)').inputValue()).toBe('500');
    expect(await page.getByLabel(/Each person once a day/).isChecked()).toBe(true);
    expect(await page.getByLabel('Pass the visitor’s query string on').isChecked()).toBe(false);
    await page.getByText('Password set').waitFor();
    // The stored password is never shown: the field is for a new one.
    expect(await page.getByLabel('New password (optional)').inputValue()).toBe('');
    await page.locator('#schedule-h').scrollIntoViewIfNeeded();
    await shot(page, `schedule-${width}`, '#schedule-h');

    await page.getByRole('button', { name: 'Remove the password' }).click();
    await page.getByText('The password will be removed when you save.').waitFor();
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await expect.poll(async () => (await stored(item.id)).hasPassword).toBe(false);
    await expect.poll(() => page.getByText('Password set').count()).toBe(0);
    await page.getByLabel('Protect with a password (optional)').waitFor();
    // Saving the password's removal sent nothing else of the schedule: it is as it was.
    expect((await stored(item.id)).maxScans).toBe(500);
    expect(problems).toEqual([]);
    await close();
  });

  it('adds two rules with a split, refuses weights that do not add up, reorders by keyboard, saves, reads back and tests visitors', {
    timeout: 240_000,
  }, async () => {
    const { item } = await v1<{ item: { id: string } }>('POST', '/qr', {
      title: `Poster ${width}`,
      contentType: 'url',
      url: 'https://example.com/home',
    });
    const { page, problems, close } = await studio(width, `${item.id}/edit`);
    const rules = page.locator('.rule');

    await page.getByRole('button', { name: 'Add a rule' }).click();
    // The new rule's name takes the focus.
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.rule') !== null)).toBe(true);
    const first = rules.nth(0);
    await first.getByLabel('Name (optional)').fill('iPhones');
    await first.getByLabel('iOS').check();
    await first.getByLabel('Address', { exact: true }).fill('apps.apple.com/app/id1');

    await page.getByRole('button', { name: 'Add a rule' }).click();
    const second = rules.nth(1);
    await second.getByLabel('Name (optional)').fill('Germany split');
    await second.getByLabel('What is checked').selectOption('country');
    await second.getByLabel('Add a country').selectOption({ label: 'Germany' });
    await second.getByRole('button', { name: 'Remove Germany' }).waitFor();
    await second.getByLabel('A split between addresses (A/B test)').check();
    await second.getByLabel('Variant 1 address').fill('example.com/de-a');
    await second.getByLabel('Variant 2 address').fill('example.com/de-b');
    await second.getByLabel('Weight of variant 1 (%)').fill('60');
    await second.getByLabel('Weight of variant 2 (%)').fill('30');
    expect(await second.locator('.split .counter').textContent()).toBe('Weights add up to 90 of 100');

    // Ten conditions at most: the button stops there and says so.
    for (let i = 1; i < 10; i++) await second.getByRole('button', { name: 'Add a condition' }).click();
    expect(await second.getByRole('button', { name: 'Add a condition' }).isDisabled()).toBe(true);
    expect(await second.getByText('10 of 10 conditions').count()).toBe(1);
    for (let i = 9; i >= 1; i--) await second.getByRole('button', { name: `Remove condition ${i + 1}` }).click();

    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await expect.poll(() => second.locator('.split > .error').textContent()).toBe('The weights must add up to 100 (now 90)');
    // The focus goes to a field to fix (the first marked: a weight of the split).
    await expect.poll(() => page.evaluate(() => document.activeElement?.getAttribute('aria-invalid'))).toBe('true');
    await shot(page, `rules-weights-error-${width}`, '#rules-h');
    expect((await stored(item.id)).rules).toEqual([]);
    await second.getByLabel('Weight of variant 2 (%)').fill('40');
    await expect.poll(() => second.locator('.split > .error').count()).toBe(0);

    // Reordered from the keyboard: the moved rule keeps the focus (on "down", once "up" cannot go further).
    await page.getByRole('button', { name: 'Move Rule “Germany split” up' }).focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => rules.locator('.rule__title').allTextContents()).toEqual(['1. Germany split', '2. iPhones']);
    await expect.poll(() => focusedText(page)).toBe('Move Rule “Germany split” down');

    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await expect.poll(async () => (await stored(item.id)).rules.map((r) => r.name)).toEqual(['Germany split', 'iPhones']);
    const saved = (await stored(item.id)).rules;
    expect(saved[0]).toMatchObject({
      conditions: [{ type: 'country', op: 'in', values: ['DE'] }],
      split: [
        { destination: 'https://example.com/de-a', weight: 60 },
        { destination: 'https://example.com/de-b', weight: 40 },
      ],
    });
    expect(saved[1]).toMatchObject({
      conditions: [{ type: 'os', op: 'in', values: ['ios'] }],
      destination: 'https://apps.apple.com/app/id1',
    });

    await page.reload();
    await page.locator('.preview__img').waitFor();
    await expect.poll(() => rules.locator('.rule__title').allTextContents()).toEqual(['1. Germany split', '2. iPhones']);
    expect(await rules.nth(0).getByRole('button', { name: 'Remove Germany' }).count()).toBe(1);
    expect(await rules.nth(0).getByLabel('Weight of variant 2 (%)').inputValue()).toBe('40');
    expect(await rules.nth(1).getByLabel('iOS').isChecked()).toBe(true);

    // A visitor from Germany on Android gets the split; one on an iPhone elsewhere the iPhone rule.
    await page.getByLabel('Phone or computer').selectOption({ label: 'Android phone (Chrome)' });
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'Germany' });
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect
      .poll(() => page.locator('#visitor-test-result').textContent())
      .toMatch(/Rule 1 “Germany split” matches, variant [12] of its split\./);
    expect(await page.locator('#visitor-test-result code').textContent()).toMatch(/^https:\/\/example\.com\/de-[ab]$/);
    await page.getByLabel('Phone or computer').selectOption({ label: 'iPhone (Safari)' });
    await page.getByLabel('Country', { exact: true }).selectOption({ label: 'Unknown' });
    await page.getByRole('button', { name: 'Test', exact: true }).click();
    await expect.poll(() => page.locator('#visitor-test-result').textContent()).toContain('Rule 2 “iPhones” matches.');
    expect(await page.locator('#visitor-test-result code').textContent()).toBe('https://apps.apple.com/app/id1');
    await page.locator('#rules-h').scrollIntoViewIfNeeded();
    await shot(page, `rules-saved-${width}`, '#rules-h');
    await shot(page, `visitor-test-${width}`, '#visitor-test-h');

    // A refusal naming a rule's path shows next to that rule's condition.
    await page.route('**/v1/qr/*', (route) =>
      route.request().method() === 'PATCH'
        ? route.fulfill({
            status: 400,
            contentType: 'application/json',
            body: JSON.stringify({ error: 'rules[1].conditions[0].values[0]: not an ISO 3166-1 country code' }),
          })
        : route.continue(),
    );
    await rules.nth(1).getByLabel('Name (optional)').fill('iPhones everywhere');
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await expect.poll(() => rules.nth(1).locator('.condition .error').textContent()).toBe('Not an ISO 3166-1 country code');
    expect(await rules.nth(0).locator('.error').count()).toBe(0);
    await page.unroute('**/v1/qr/*');

    // Removing a rule keeps the focus in the list.
    await page.getByRole('button', { name: 'Remove Rule “iPhones everywhere”' }).click();
    await expect.poll(() => rules.count()).toBe(1);
    await expect.poll(() => page.evaluate(() => document.activeElement?.id ?? '')).toMatch(/-h$/);
    expect(problems.filter((p) => !/status of 400/.test(p))).toEqual([]);
    await close();
  });
});
