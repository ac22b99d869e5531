// The studio's form through a real browser: every reason a save is refused is shown under its
// field (the payload's length limit too, and all invalid vCard fields at once), the save
// button is also where the form ends and behaves as the header's, and Wi-Fi messages speak
// the user's words.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, screenshots, useBrowserSuite } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-form.db', account: { viewer: false } });

async function newCodePage(): Promise<{ page: Page; problems: string[]; close: () => Promise<void> }> {
  const { context, page, problems } = await suite.signIn(OWNER);
  await page.goto(`${suite.url}/app/codes/new`);
  await page.locator('.preview__img').waitFor();
  return { page, problems, close: () => context.close() };
}

/** The element focused now, by id. */
function focusedId(page: Page): Promise<string> {
  return page.evaluate(() => document.activeElement?.id ?? '');
}

/** Whether the element is fully inside the viewport. */
function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.top >= 0 && r.left >= 0 && r.bottom <= innerHeight && r.right <= innerWidth && r.height > 0;
  });
}

async function codeTitled(title: string): Promise<{ id: string; title: string; payload: string } | undefined> {
  const res = await fetch(`${suite.url}/v1/qr?limit=100`, { headers: { authorization: `Bearer ${suite.account.key}` } });
  const body = (await res.json()) as { items: Array<{ id: string; title: string; payload: string }> };
  return body.items.find((i) => i.title === title);
}

describe.skipIf(!HAVE_CHROMIUM)('the studio form in a browser', () => {
  it('names the 4,000-character limit under the text that is too long, and creates the code once it fits', {
    timeout: 120_000,
  }, async () => {
    const { page, problems, close } = await newCodePage();
    const title = `Long note ${Date.now()}`;
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByRole('tab', { name: 'Text', exact: true }).click();
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('a'.repeat(5000));
    expect(await page.locator('#f-text-count').textContent()).toBe('5,000 of 4,000 characters');
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await expect.poll(() => page.locator('#f-text-error').textContent()).toBe('At most 4,000 characters (now 5,000)');
    expect(await page.getByRole('textbox', { name: 'Text', exact: true }).getAttribute('aria-invalid')).toBe('true');
    // The focus goes to the field to fix, not left on the button.
    await expect.poll(() => focusedId(page)).toBe('f-text');
    expect(page.url()).toMatch(/\/codes\/new$/);

    expect(await page.locator('.form-error').textContent()).toBe('Fix the marked fields first.');
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('a'.repeat(4000));
    await expect.poll(() => page.locator('#f-text-error').count()).toBe(0);
    // Nothing blocks the save now: the form's message has gone with the field's.
    expect(await page.locator('.form-error').count()).toBe(0);
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    expect((await codeTitled(title))?.payload).toBe('a'.repeat(4000));
    expect(problems).toEqual([]);
    await close();
  });

  it('names the limit under a vCard field that makes the contact too long', { timeout: 120_000 }, async () => {
    const { page, close } = await newCodePage();
    await page.getByLabel('Title', { exact: true }).fill('Long name');
    await page.getByRole('tab', { name: 'vCard', exact: true }).click();
    await page.getByRole('textbox', { name: 'First name (optional)', exact: true }).fill('b'.repeat(2000));
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await expect
      .poll(() => page.locator('#f-vcardFirstName-error').textContent())
      .toContain('at most 4,000 characters in all, and this field has 2,000');
    await expect.poll(() => focusedId(page)).toBe('f-vcardFirstName');
    expect(page.url()).toMatch(/\/codes\/new$/);
    await close();
  });

  it('marks every invalid vCard field in one pass', { timeout: 120_000 }, async () => {
    const { page, close } = await newCodePage();
    await page.getByLabel('Title', { exact: true }).fill('Ada');
    await page.getByRole('tab', { name: 'vCard', exact: true }).click();
    await page.getByRole('textbox', { name: 'First name (optional)', exact: true }).fill('Ada');
    await page.getByRole('textbox', { name: 'Phone (optional)', exact: true }).fill('not a phone');
    await page.getByRole('textbox', { name: 'Email (optional)', exact: true }).fill('bad@');
    await page.getByRole('textbox', { name: 'Website (optional)', exact: true }).fill('nope');
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await expect
      .poll(() => page.locator('#content-panel [aria-invalid="true"]').evaluateAll((els) => els.map((e) => e.id)))
      .toEqual(['f-vcardPhone', 'f-vcardEmail', 'f-vcardWeb']);
    expect(await page.locator('#f-vcardPhone-error').textContent()).toContain('at least 3 digits');
    expect(await page.locator('#f-vcardEmail-error').textContent()).toContain('email address');
    expect(await page.locator('#f-vcardWeb-error').textContent()).toContain('http or https URL');
    await expect.poll(() => focusedId(page)).toBe('f-vcardPhone');
    await close();
  });

  it('saves from the end of the form, with the same busy state as the header’s button', { timeout: 150_000 }, async () => {
    const { page, problems, close } = await newCodePage();
    const title = `From the bottom ${Date.now()}`;
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByRole('textbox', { name: 'Web address', exact: true }).fill('example.com/bottom');
    const buttons = page.getByRole('button', { name: 'Create code' });
    expect(await buttons.count()).toBe(2);
    // On a phone, the action stays on screen while the form scrolls past, and at its end.
    for (const y of ['document.getElementById("design-h").offsetTop', 'document.body.scrollHeight']) {
      await page.evaluate(`scrollTo(0, ${y})`);
      expect(await inViewport(page, '.studio__actions .btn'), `scrolled to ${y}`).toBe(true);
    }
    // Both buttons show the one request in flight: aria-disabled, not disabled, so the one
    // pressed keeps the keyboard focus.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    let creates = 0;
    await page.route('**/v1/qr', async (route) => {
      creates++;
      await held;
      await route.continue();
    });
    await page.locator('.studio__actions .btn').click();
    await expect
      .poll(() =>
        buttons.evaluateAll((els) =>
          els.map((e) => [(e as HTMLButtonElement).disabled, e.getAttribute('aria-disabled'), e.getAttribute('aria-busy')]),
        ),
      )
      .toEqual([
        [false, 'true', 'true'],
        [false, 'true', 'true'],
      ]);
    // A second press while busy sends nothing more (forced: Playwright waits for an
    // aria-disabled button to be enabled, as a user is told it is unavailable).
    await page.locator('.studio__actions .btn').click({ force: true });
    expect(creates).toBe(1);
    release();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    await page.unroute('**/v1/qr');
    expect((await codeTitled(title))?.payload).toBe('https://example.com/bottom');

    // On a desktop edit page, the button at the form's end saves the changes.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Title', { exact: true }).fill(`${title}, renamed`);
    await page.evaluate('scrollTo(0, document.body.scrollHeight)');
    expect(await inViewport(page, '.studio__actions .btn')).toBe(true);
    expect(await page.locator('.studio__actions .btn').textContent()).toBe('Save changes');
    await page.locator('.studio__actions .btn').click();
    await expect.poll(async () => (await codeTitled(`${title}, renamed`)) !== undefined).toBe(true);
    await expect.poll(() => page.locator('.studio__status').textContent()).toBe('All changes saved');
    expect(problems).toEqual([]);
    await close();
  });

  it('asks for a Wi-Fi password in plain words and advises on an unusual WEP key without refusing it', { timeout: 120_000 }, async () => {
    const { page, close } = await newCodePage();
    const title = `Old router ${Date.now()}`;
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByRole('tab', { name: 'Wi-Fi', exact: true }).click();
    await page.getByRole('textbox', { name: 'Network name (SSID)', exact: true }).fill('Attic');
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await expect
      .poll(() => page.locator('#f-wifiPass-error').textContent())
      .toBe('Enter the network password, or choose “None (open network)” under Security');
    // The password is asked for as needed (no "optional") unless the network is open.
    expect(await page.getByRole('textbox', { name: 'Password', exact: true }).getAttribute('aria-required')).toBe('true');
    await page.getByLabel('Security').selectOption('nopass');
    await page.getByRole('textbox', { name: 'Password (optional)', exact: true }).waitFor();
    await page.getByLabel('Security').selectOption('WEP');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('abc');
    await expect.poll(() => page.locator('#f-wifiPass-warning').textContent()).toContain('5 or 13 characters, or 10 or 26 hex digits');
    await screenshots(page, 'studio-wifi-wep');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('0123456789');
    await expect.poll(() => page.locator('#f-wifiPass-warning').count()).toBe(0);
    // The API stores any WEP password, so the studio only advises.
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('abc');
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    expect((await codeTitled(title))?.payload).toBe('WIFI:T:WEP;S:Attic;P:abc;;');
    await close();
  });

  it('shows the six content tabs as one 3 × 2 control on a phone and names the logo file chosen', { timeout: 120_000 }, async () => {
    const { page, close } = await newCodePage();
    const tops = await page.locator('.kind-tabs__tab').evaluateAll((els) => els.map((e) => (e as HTMLElement).offsetTop));
    expect(new Set(tops).size).toBe(2);
    // The header's button does not touch the first card below it.
    const gap = await page.evaluate(
      () =>
        document.querySelector('.studio')!.getBoundingClientRect().top -
        document.querySelector('.page-head .btn')!.getBoundingClientRect().bottom,
    );
    expect(gap).toBeGreaterThanOrEqual(8);
    await page.locator('#group-logo summary').click();
    await page.getByLabel('Your own logo').setInputFiles({
      name: 'brand.svg',
      mimeType: 'image/svg+xml',
      buffer: Buffer.from('<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#db2777"/></svg>'),
    });
    await expect.poll(() => page.locator('#d-customLogoUrl-state').textContent()).toBe('Using “brand.svg”');
    await page.getByRole('button', { name: 'Remove your logo' }).click();
    await expect.poll(() => page.locator('#d-customLogoUrl-state').textContent()).toBe('No logo of your own');
    await close();
  });
});
