// Keyboard and screen-reader behaviour through a real browser, as an accessibility review
// found it lacking: the focus stays where the user is (typing after a refused submit, a busy
// save button, a renamed code) and goes somewhere sensible after an in-place action; choices
// that act (a member's role, the account) wait for an explicit Enter or button; results are
// said through the app's one polite live region; the sticky selection bar never covers the
// focused control; fields have edges of 3:1 contrast.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import {
  HAVE_CHROMIUM,
  OWNER,
  SHOTS_DIR,
  acceptInvite,
  newContext,
  screenshots,
  useBrowserSuite,
  viewportShots,
} from '../support/browser.ts';

const EDITOR = { email: 'editor@example.com', password: 'editor password 1' };
/** Codes in the account: more than one page of the list (50). */
const CODES = 55;
// The project retries a test a loaded machine starved, on the same server: names are made afresh.
let tries = 0;

let editorId: string;
const suite = useBrowserSuite({
  db: 'a11y.db',
  env: { SIGNUP: 'open' },
  account: { viewer: false },
  seed: async ({ url }) => {
    const invite = (await (await suite.asOwner('POST', '/account/invites', { role: 'editor' })).json()) as { url: string };
    await acceptInvite(url, invite.url, EDITOR);
    const { members } = (await (await suite.asOwner('GET', '/account/members')).json()) as {
      members: Array<{ userId: string; email: string }>;
    };
    editorId = members.find((m) => m.email === EDITOR.email)?.userId as string;
    const batch = await fetch(`${url}/v1/qr/batch`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.account.key}` },
      body: JSON.stringify({
        items: Array.from({ length: CODES }, (_, i) => ({
          title: `Filler ${String(i + 1).padStart(2, '0')}`,
          url: `https://example.com/f${i}`,
        })),
      }),
    });
    if (batch.status >= 300) throw new Error(`batch: ${batch.status} ${await batch.text()}`);
  },
});

async function createCode(title: string, extra: object = {}): Promise<{ id: string; code: string }> {
  const res = await fetch(`${suite.url}/v1/qr`, {
    method: 'POST',
    headers: { 'content-type': 'application/json', authorization: `Bearer ${suite.account.key}` },
    body: JSON.stringify({ title, url: 'https://example.com/a11y', ...extra }),
  });
  if (res.status !== 201) throw new Error(`creating ${title}: ${res.status} ${await res.text()}`);
  return ((await res.json()) as { item: { id: string; code: string } }).item;
}

/** What the app's live region says once it settles (it is emptied, then written). */
const announced = (page: Page) => page.locator('#announcer').textContent();
/** A loaded machine takes more than expect.poll's 1 s for a debounced search and its answer. */
const SLOW = { timeout: 10_000 };

/** The focused element: its id, else its accessible label or text. */
const focused = (page: Page) =>
  page.evaluate(() => {
    const el = document.activeElement as HTMLElement | null;
    if (!el || el === document.body) return 'body';
    return el.id || el.getAttribute('aria-label') || el.textContent?.trim() || el.tagName;
  });

describe.skipIf(!HAVE_CHROMIUM)('keyboard and screen-reader behaviour', () => {
  it('typing after a refused submit stays in the field being typed in (sign-in, API keys)', { timeout: 120_000 }, async () => {
    const { context, page } = await newContext(suite.browser);
    await page.goto(`${suite.url}/app/sign-in`);
    await page.getByLabel('Email').focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => page.getByLabel('Password').getAttribute('aria-invalid'), SLOW).toBe('true');
    expect(await focused(page)).toBe('f-email');
    // At a typing speed: each keystroke clears the field's error, which must not move the focus.
    await page.keyboard.type('ada@example.com', { delay: 60 });
    expect(await page.getByLabel('Email').inputValue()).toBe('ada@example.com');
    expect(await page.getByLabel('Password').inputValue()).toBe('');
    expect(await focused(page)).toBe('f-email');
    await screenshots(page, 'a11y-signin-typing');
    // A second refused submit moves the focus again, once.
    await page.keyboard.press('Enter');
    await expect.poll(() => focused(page), SLOW).toBe('f-password');
    await context.close();

    const owner = await suite.signIn(OWNER);
    await owner.page.goto(`${suite.url}/app/account/keys`);
    const read = owner.page.getByRole('checkbox', { name: /qr:read/ });
    await read.uncheck();
    await owner.page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => focused(owner.page), SLOW).toBe('f-name');
    // Ticking a scope with Space clears the scope error: the focus stays on the box.
    await read.focus();
    await owner.page.keyboard.press('Space');
    await expect.poll(() => read.isChecked(), SLOW).toBe(true);
    await owner.page.waitForTimeout(200);
    expect(await owner.page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('qr:read');
    await owner.context.close();
  });

  it("a member's role changes on Enter or Change role, never on an arrow key; making an owner asks first and is announced", {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    const patches: string[] = [];
    page.on('request', (r) => {
      if (r.method() === 'PATCH') patches.push(r.url());
    });
    await page.goto(`${suite.url}/app/account/members`);
    const role = page.getByLabel(`Role of ${EDITOR.email}`, { exact: true });
    await role.focus();
    await page.keyboard.press('ArrowDown'); // Editor → Owner, as one does to hear the options
    await page.waitForTimeout(500);
    expect(patches).toEqual([]);
    expect(await role.inputValue()).toBe('owner');
    await screenshots(page, 'a11y-members-role-picked');

    // Enter asks, as the role hands over the account; Escape takes the question and the pick back.
    await page.keyboard.press('Enter');
    await page.getByRole('button', { name: 'Make owner' }).waitFor();
    expect(await focused(page)).toBe('Make owner');
    await screenshots(page, 'a11y-members-role-confirm');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page), SLOW).toBe(`role-${editorId}`);
    expect(await role.inputValue()).toBe('editor');
    expect(patches).toEqual([]);

    // Picked again, then Change role and the confirmation: applied, said aloud, the focus back on the select.
    await page.keyboard.press('ArrowDown');
    await page.getByRole('button', { name: `Change role of ${EDITOR.email} to Owner` }).click();
    await page.getByRole('button', { name: 'Make owner' }).click();
    await expect.poll(() => announced(page), SLOW).toBe(`${EDITOR.email} is now Owner.`);
    expect(patches).toHaveLength(1);
    await expect.poll(() => focused(page), SLOW).toBe(`role-${editorId}`);
    await screenshots(page, 'a11y-members-role-changed');

    // Back to Editor with Enter: no question for a role below owner.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Enter');
    await expect.poll(() => announced(page), SLOW).toBe(`${EDITOR.email} is now Editor.`);
    expect(patches).toHaveLength(2);
    const { members } = (await (await suite.asOwner('GET', '/account/members')).json()) as {
      members: Array<{ email: string; role: string }>;
    };
    expect(members.find((m) => m.email === EDITOR.email)?.role).toBe('editor');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the account switcher switches on Enter or Switch, not on an arrow key, and says so', { timeout: 120_000 }, async () => {
    const n = ++tries;
    const founder = { email: `beta${n}@example.com`, password: 'beta founder pass 1' };
    const signup = await fetch(`${suite.url}/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountName: `Beta ${n}`, ...founder }),
    });
    expect(signup.status).toBe(201);
    const betaCookie = (signup.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const { csrfToken } = (await signup.json()) as { csrfToken: string };
    const invite = await fetch(`${suite.url}/v1/account/invites`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: betaCookie, 'x-csrf-token': csrfToken },
      body: JSON.stringify({ role: 'viewer' }),
    });
    await acceptInvite(suite.url, ((await invite.json()) as { url: string }).url, OWNER);

    const { context, page } = await suite.signIn(OWNER);
    const switches: string[] = [];
    page.on('request', (r) => {
      if (r.url().endsWith('/v1/session/account')) switches.push(r.method());
    });
    await page.goto(`${suite.url}/app/account/profile`);
    const picker = page.getByRole('combobox', { name: 'Account', exact: true });
    const current = await picker.evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    await picker.focus();
    await page.keyboard.press(current === 'Acme' ? 'ArrowDown' : 'ArrowUp');
    const other = await picker.evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    expect(other).not.toBe(current);
    await page.waitForTimeout(500);
    expect(switches).toEqual([]);
    expect(page.url()).toMatch(/\/app\/account\/profile$/);
    await page.getByRole('button', { name: `Switch to ${other}` }).waitFor();
    await screenshots(page, 'a11y-account-switch-picked');

    await picker.focus();
    await page.keyboard.press('Enter');
    await page.waitForURL(/\/app\/codes$/);
    await expect.poll(() => announced(page), SLOW).toBe(`Switched to the account ${other}.`);
    expect(switches).toEqual(['PUT']);
    await context.close();
  });

  it('saving keeps the focus on the save button (studio, header and phone bar; password change), and says "Saved"', {
    timeout: 180_000,
  }, async () => {
    const code = await createCode(`Focus ${++tries}`);
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/${code.id}/edit`);
    await page.locator('.preview__img').waitFor();
    // The request held, so the button is seen busy with the focus on it.
    let release = () => {};
    const held = new Promise<void>((r) => (release = r));
    await page.route(`**/v1/qr/${code.id}`, async (route) => {
      if (route.request().method() === 'PATCH') await held;
      await route.continue();
    });
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByLabel('Title', { exact: true }).fill(`Focus ${tries}, renamed`);
    const header = page.locator('.page-head .btn', { hasText: 'Save changes' });
    await header.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => header.getAttribute('aria-busy'), SLOW).toBe('true');
    expect(
      await page.evaluate(() => document.activeElement?.closest('.page-head') !== null && document.activeElement?.tagName === 'BUTTON'),
    ).toBe(true);
    release();
    await expect.poll(() => announced(page), SLOW).toBe('Saved.');
    await page.getByRole('heading', { level: 1, name: `Edit “Focus ${tries}, renamed”` }).waitFor();
    expect(
      await page.evaluate(() => document.activeElement?.tagName === 'BUTTON' && document.activeElement.closest('.page-head') !== null),
    ).toBe(true);
    await screenshots(page, 'a11y-studio-saved');

    // On a phone, from the bar at the bottom: a rename leaves the focus on the bar's button, on screen.
    await page.setViewportSize({ width: 390, height: 844 });
    await page.getByLabel('Title', { exact: true }).fill(`Focus ${tries}, phone`);
    const bar = page.locator('.studio__actions .btn');
    await bar.focus();
    await page.keyboard.press('Enter');
    await page.getByRole('heading', { level: 1, name: `Edit “Focus ${tries}, phone”` }).waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.closest('.studio__actions') !== null), SLOW).toBe(true);
    const box = await bar.boundingBox();
    expect(box !== null && box.y >= 0 && box.y + box.height <= 844).toBe(true);
    expect(await page.locator('.studio__status').textContent()).toBe('All changes saved');
    await page.screenshot({ path: path.join(SHOTS_DIR, 'a11y-studio-phone-saved-390.png') });
    await page.unroute(`**/v1/qr/${code.id}`);

    // The password: the button keeps the focus, the result is said.
    await page.goto(`${suite.url}/app/account/profile`);
    await page.getByLabel('Current password').fill(OWNER.password);
    await page.getByLabel('New password').fill(OWNER.password);
    const change = page.getByRole('button', { name: 'Change password' });
    await change.focus();
    await page.keyboard.press('Enter');
    await expect.poll(() => announced(page), SLOW).toBe('Password changed. Your other sessions were signed out.');
    expect(await focused(page)).toBe('Change password');
    await screenshots(page, 'a11y-profile-changed');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('after creating a code on a phone, the save result and the server warnings are on screen and said', { timeout: 120_000 }, async () => {
    const { context, page } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    await page.getByLabel('Title', { exact: true }).fill(`Pale ${++tries}`);
    await page.getByRole('textbox', { name: 'Web address', exact: true }).fill('https://example.com/pale');
    await page.locator('#group-colours summary').click();
    await page.getByLabel('Code colour', { exact: true }).fill('#cccccc');
    // A design warning the preview finds is said as it appears.
    await expect.poll(() => announced(page), SLOW).toMatch(/^Phones may fail to scan this design: /);
    await page.locator('.studio__actions .btn').click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    const result = page.locator('#save-result');
    await result.waitFor();
    // The design's warnings are the preview's, shown beside it: named, not repeated.
    expect(await result.textContent()).toMatch(/Saved, with (the warning|the \d warnings) shown at the preview/);
    expect(await page.locator('#design-warnings').textContent()).toContain('contrast');
    const box = await result.boundingBox();
    expect(box !== null && box.y >= 0 && box.y + box.height <= 844, `save result at ${JSON.stringify(box)}`).toBe(true);
    await expect.poll(() => announced(page), SLOW).toMatch(/^Created, with warnings from the server: .*contrast/);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'a11y-studio-phone-created-390.png') });
    await screenshots(page, 'a11y-studio-created');
    // The create's result is shown once: a reload of the edit page has none to show.
    await page.reload();
    await page.locator('#short-url').waitFor();
    expect(await result.count()).toBe(0);
    await context.close();
  });

  it('a saved design is deleted only after a confirmation, then the focus goes back to the list of designs and the deletion is said', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    const name = `Design ${++tries}`;
    await page.getByLabel('Save the current design as').fill(name);
    await page.getByRole('button', { name: 'Save design' }).click();
    await expect.poll(() => announced(page), SLOW).toBe(`Design “${name}” saved.`);
    await page.getByLabel('Start from a design').selectOption({ label: name });
    await page.getByRole('button', { name: `Delete the saved design “${name}”` }).click();
    await expect.poll(() => focused(page), SLOW).toBe('Delete');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page), SLOW).toBe(`Delete the saved design “${name}”`);
    await page.getByRole('button', { name: `Delete the saved design “${name}”` }).click();
    await page.getByRole('button', { name: 'Delete', exact: true }).click();
    await expect.poll(() => focused(page), SLOW).toBe('library-pick');
    await expect.poll(() => announced(page), SLOW).toBe(`Design “${name}” deleted.`);
    expect(await page.getByLabel('Start from a design').locator('option', { hasText: name }).count()).toBe(0);
    expect(await page.getByLabel('Start from a design').evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent)).toBe(
      'Choose…',
    );
    await screenshots(page, 'a11y-design-deleted');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('API keys: the focus goes to the new secret, back to Create key, back to Revoke on Cancel or Escape, and to the result after a revoke', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/keys`);
    const name = `Focus key ${++tries}`;
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => focused(page), SLOW).toBe('new-key-secret');
    expect(await page.locator('#new-key-secret').getAttribute('aria-describedby')).toBe('new-key-notice');
    await screenshots(page, 'a11y-keys-created');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => focused(page), SLOW).toBe('create-key');

    const revoke = page.getByRole('button', { name: `Revoke ${name}` });
    await revoke.click();
    await page.getByRole('button', { name: 'Cancel' }).click();
    await expect.poll(() => focused(page), SLOW).toBe(`Revoke ${name}`);
    await revoke.click();
    await expect.poll(() => focused(page), SLOW).toBe('Revoke key');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page), SLOW).toBe(`Revoke ${name}`);
    expect(await page.getByRole('button', { name: 'Revoke key' }).count()).toBe(0);
    await revoke.click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await expect.poll(() => focused(page), SLOW).toBe('keys-done');
    expect(await page.locator('#keys-done').textContent()).toContain(`Key “${name}” revoked.`);
    await screenshots(page, 'a11y-keys-revoked');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('members: the focus goes to the invite link, back to Create invite link, and to the result after a withdraw', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/members`);
    await page.getByRole('button', { name: 'Create invite link' }).click();
    await expect.poll(() => focused(page), SLOW).toBe('invite-url');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => focused(page), SLOW).toBe('create-invite');
    const withdraw = page.getByRole('button', { name: /^Withdraw the editor invite made / }).first();
    await withdraw.click();
    await expect.poll(() => focused(page), SLOW).toBe('Withdraw');
    await page.keyboard.press('Escape');
    await expect.poll(() => focused(page), SLOW).toMatch(/^Withdraw the editor invite made /);
    await withdraw.click();
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    await expect.poll(() => focused(page), SLOW).toBe('invites-done');
    expect(await page.locator('#invites-done').textContent()).toMatch(/invite made .* was withdrawn\./);
    await screenshots(page, 'a11y-members-withdrawn');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('codes: a search says how many codes it shows; Clear filters and Show more put the focus somewhere sensible', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.locator('.code-row').first().waitFor();
    await page.getByLabel('Search').fill('Filler 07');
    await expect.poll(() => announced(page), SLOW).toBe('1 code shown.');
    await page.getByLabel('Search').fill('no such code at all');
    await expect.poll(() => announced(page), SLOW).toBe('No codes match these filters.');
    await page.getByRole('button', { name: 'Clear filters' }).click();
    await expect.poll(() => focused(page), SLOW).toBe('codes-q');
    await expect.poll(() => page.locator('.code-row').count(), SLOW).toBe(50);

    await page.getByRole('button', { name: 'Show more' }).click();
    await expect.poll(() => page.locator('.code-row').count(), SLOW).toBeGreaterThan(50);
    const names = await page.locator('.code-row .code-row__name').allTextContents();
    await expect.poll(() => page.evaluate(() => document.activeElement?.textContent), SLOW).toBe(names[50]);
    await expect.poll(() => announced(page), SLOW).toBe(`${names.length - 50} more codes shown, ${names.length} in all.`);
    expect(problems).toEqual([]);
    await context.close();
  });

  for (const width of [390, 1280]) {
    it(`the sticky selection bar never covers the focused control, at ${width} px`, { timeout: 120_000 }, async () => {
      const { context, page } = await suite.signIn(OWNER);
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      await page.locator('.code-row').first().waitFor();
      await page.locator('.code-row input[type="checkbox"]').first().check();
      // From a control far down the list, back up by Shift+Tab: each focused control is below the bar.
      await page
        .locator('.code-row')
        .nth(30)
        .getByRole('button', { name: /^Delete / })
        .focus();
      const covered: string[] = [];
      for (let i = 0; i < 60; i++) {
        await page.keyboard.press('Shift+Tab');
        const where = await page.evaluate(() => {
          const el = document.activeElement as HTMLElement;
          const bar = document.querySelector('.bulk-bar')?.getBoundingClientRect();
          const r = el.getBoundingClientRect();
          return {
            name: el.getAttribute('aria-label') ?? el.textContent?.trim() ?? el.tagName,
            top: r.top,
            barBottom: bar?.bottom ?? 0,
            inBar: el.closest('.bulk-bar') !== null,
          };
        });
        if (!where.inBar && where.top < where.barBottom)
          covered.push(`${where.name}: top ${Math.round(where.top)} < bar ${Math.round(where.barBottom)}`);
      }
      expect(covered).toEqual([]);
      // The bar that appeared above the list is said, with its size.
      expect(await announced(page)).toMatch(/^1 code selected\./);
      await page.screenshot({ path: path.join(SHOTS_DIR, `a11y-codes-bulkbar-focus-${width}.png`) });
      await context.close();
    });
  }

  it('fields have edges of 3:1 contrast or more against the card and the page, light and dark', { timeout: 60_000 }, async () => {
    for (const dark of [false, true]) {
      const { context, page } = await newContext(suite.browser, { dark });
      await page.goto(`${suite.url}/app/sign-in`);
      const ratios = await page.getByLabel('Email').evaluate((input) => {
        const rgb = (c: string) => (c.match(/[\d.]+/g) ?? []).slice(0, 3).map(Number);
        const lum = (c: string) => {
          const [r, g, b] = rgb(c).map((v) => {
            const s = v / 255;
            return s <= 0.03928 ? s / 12.92 : ((s + 0.055) / 1.055) ** 2.4;
          }) as [number, number, number];
          return 0.2126 * r + 0.7152 * g + 0.0722 * b;
        };
        const ratio = (a: string, b: string) => {
          const [hi, lo] = [lum(a), lum(b)].sort((x, y) => y - x) as [number, number];
          return (hi + 0.05) / (lo + 0.05);
        };
        const border = getComputedStyle(input).borderTopColor;
        const card = getComputedStyle(input.closest('.card') as Element).backgroundColor;
        const pageBg = getComputedStyle(document.documentElement).backgroundColor;
        return [ratio(border, card), ratio(border, pageBg)];
      });
      for (const r of ratios) expect(r, dark ? 'dark' : 'light').toBeGreaterThanOrEqual(3);
      await context.close();
    }
  });

  it('a filter follows a real choice: arrow keys on a closed select apply once they settle (or on Tab), and no filter adds a history entry', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.locator('.code-row').first().waitFor();
    const entries = await page.evaluate(() => history.length);
    const kind = page.getByLabel('Kind');
    await kind.focus();
    // As one listens to the options: All kinds → Link → Wi-Fi → Contact, a key at a time.
    for (let i = 0; i < 3; i++) await page.keyboard.press('ArrowDown', { delay: 50 });
    expect(await kind.inputValue()).toBe('vcard');
    expect(page.url()).toMatch(/\/app\/codes$/);
    await page.waitForURL(/\/app\/codes\?kind=vcard$/);
    await page.getByText('No codes match these filters.').waitFor();
    await screenshots(page, 'a11y-codes-kind-by-keys');
    // Leaving the select applies the option stepped to at once, without waiting.
    await page.keyboard.press('ArrowUp');
    await page.keyboard.press('Tab');
    await page.waitForURL(/\/app\/codes\?kind=wifi$/, { timeout: 500 });
    // A choice made in the open list (as a mouse or a touch makes it) applies at once.
    await page.getByLabel('Status').selectOption('paused');
    await page.waitForURL(/\/app\/codes\?kind=wifi&status=paused$/, { timeout: 500 });
    expect(await page.evaluate(() => history.length)).toBe(entries);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('the content tabs follow the WAI-ARIA tabs pattern: Home and End go to the first and last tab', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    await page.getByRole('tab', { name: 'URL' }).focus();
    await page.keyboard.press('End');
    await expect.poll(() => focused(page), SLOW).toBe('tab-email');
    expect(await page.getByRole('tab', { name: 'Email' }).getAttribute('aria-selected')).toBe('true');
    await page.getByLabel('To', { exact: true }).waitFor();
    await page.keyboard.press('Home');
    await expect.poll(() => focused(page), SLOW).toBe('tab-url');
    expect(await page.getByRole('tab', { name: 'URL' }).getAttribute('aria-selected')).toBe('true');
    await page.keyboard.press('ArrowLeft');
    await expect.poll(() => focused(page), SLOW).toBe('tab-email');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('on a phone, row checkboxes and buttons are 44 px touch targets; the desktop list stays compact', { timeout: 120_000 }, async () => {
    const { context, page } = await suite.signIn(OWNER);
    const row = page.locator('.code-row').first();
    await row.waitFor();
    const box = row.locator('input[type="checkbox"]');
    const b = (await box.boundingBox())!;
    // A tap 10 px beside the 20 px box, above and to its left, still ticks it.
    await page.mouse.click(b.x - 10, b.y - 10);
    expect(await box.isChecked()).toBe(true);
    const hit = (await row.locator('.code-row__hit').boundingBox())!;
    expect(Math.min(hit.width, hit.height)).toBeGreaterThanOrEqual(44);
    const heights = await row.locator('.btn').evaluateAll((bs) => bs.map((x) => x.getBoundingClientRect().height));
    expect(heights).toHaveLength(4); // Copy, Pause, Edit, Delete
    for (const h of heights) expect(h).toBeGreaterThanOrEqual(44);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'a11y-codes-touch-390.png') });
    await page.setViewportSize({ width: 1280, height: 800 });
    const desktop = await row.locator('.btn').evaluateAll((bs) => bs.map((x) => x.getBoundingClientRect().height));
    for (const h of desktop) expect(h).toBeLessThan(40);
    await page.screenshot({ path: path.join(SHOTS_DIR, 'a11y-codes-touch-1280.png') });
    await context.close();
  });

  it('each account tab has a title and a heading of its own', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    for (const [tab, path] of [
      ['API keys', 'keys'],
      ['Members', 'members'],
      ['Profile', 'profile'],
    ] as const) {
      await page.goto(`${suite.url}/app/account/${path}`);
      await expect.poll(() => page.title(), SLOW).toBe(`${tab} · Account · qrtrack`);
      expect(await page.getByRole('heading', { level: 1 }).textContent()).toBe(tab);
    }
    // Moving between the tabs: the new heading takes the focus, so it is what is heard.
    await page.getByRole('navigation', { name: 'Account' }).getByRole('link', { name: 'Members' }).click();
    await expect.poll(() => page.title(), SLOW).toBe('Members · Account · qrtrack');
    await expect.poll(() => page.evaluate(() => document.activeElement?.tagName), SLOW).toBe('H1');
    await screenshots(page, 'a11y-account-members-title');
    expect(problems).toEqual([]);
    await context.close();
  });

  it("the studio shows a field's error once the field is left, and clears it as soon as it is fixed", { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    const url = page.getByLabel('Web address');
    await url.focus();
    await page.keyboard.type('htt', { delay: 60 });
    // Still typing: nothing is marked yet.
    await page.waitForTimeout(300);
    expect(await url.getAttribute('aria-invalid')).toBeNull();
    expect(await page.locator('#f-url-error').count()).toBe(0);
    await page.keyboard.press('Tab');
    await expect.poll(() => page.locator('#f-url-error').textContent(), SLOW).toMatch(/valid http or https URL/);
    expect(await url.getAttribute('aria-invalid')).toBe('true');
    await viewportShots(page, 'a11y-studio-url-left', url);
    // Back in the field, the error goes with the keystroke that fixes it.
    await url.focus();
    await page.keyboard.press('End');
    await page.keyboard.type('ps://example.com', { delay: 30 });
    await expect.poll(() => page.locator('#f-url-error').count(), SLOW).toBe(0);
    expect(await focused(page)).toBe('f-url');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('an invite opened while signed in offers "Join as <email>" with the password alone', { timeout: 120_000 }, async () => {
    const n = ++tries;
    // Two people who signed up (the owner's session of the set-up is ended by the password change above).
    const signUp = async (who: { email: string; password: string }, accountName: string) => {
      const res = await fetch(`${suite.url}/v1/signup`, {
        method: 'POST',
        headers: { 'content-type': 'application/json' },
        body: JSON.stringify({ accountName, ...who }),
      });
      expect(res.status).toBe(201);
      return {
        cookie: (res.headers.get('set-cookie') ?? '').split(';')[0] as string,
        csrf: ((await res.json()) as { csrfToken: string }).csrfToken,
      };
    };
    const founder = await signUp({ email: `founder${n}@example.com`, password: 'founder password 1' }, `Gamma ${n}`);
    const joiner = { email: `joiner${n}@example.com`, password: 'joiner password 1' };
    await signUp(joiner, `Joiner ${n}`);
    const made = await fetch(`${suite.url}/v1/account/invites`, {
      method: 'POST',
      headers: { 'content-type': 'application/json', cookie: founder.cookie, 'x-csrf-token': founder.csrf },
      body: JSON.stringify({ role: 'viewer' }),
    });
    const invite = (await made.json()) as { url: string };

    const { context, page, problems } = await suite.signIn(joiner);
    await page.goto(invite.url);
    const join = page.getByRole('button', { name: `Join as ${joiner.email}` });
    await join.waitFor();
    expect(await page.getByLabel('Email').count()).toBe(0);
    await screenshots(page, 'a11y-invite-signed-in');
    // Joining as someone else stays possible, one button away.
    await page.getByRole('button', { name: 'Join with another email instead' }).click();
    await expect.poll(() => focused(page), SLOW).toBe('f-email');
    await page.reload();
    await join.waitFor();
    await page.getByLabel('Your password').fill('not my password');
    await join.click();
    await expect.poll(() => page.locator('#f-password-error').textContent(), SLOW).toMatch(/give its password/);
    await expect.poll(() => focused(page), SLOW).toBe('f-password');
    await page.getByLabel('Your password').fill(joiner.password);
    await join.click();
    await page.waitForURL(/\/app\/codes$/);
    const session = await page.evaluate(
      async () => (await (await fetch('/v1/session')).json()) as { user: { email: string }; account: { name: string } },
    );
    expect(session).toMatchObject({ user: { email: joiner.email }, account: { name: `Gamma ${n}` } });
    // The wrong password's 401, which Chromium logs; nothing else may be.
    expect(problems.filter((p) => !/status of 401/.test(p))).toEqual([]);
    await context.close();
  });

  it('a refused clipboard is said, and the link is shown selected to copy by hand', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    const row = page.locator('.code-row').first();
    await row.waitFor();
    // As over plain http on a LAN address: the browser refuses the clipboard.
    await page.evaluate(() => {
      Object.defineProperty(navigator.clipboard, 'writeText', {
        value: () => Promise.reject(new DOMException('Write permission denied.', 'NotAllowedError')),
      });
    });
    const id = await row.getAttribute('data-id');
    await row.getByRole('button', { name: /^Copy the short link of / }).click();
    await expect.poll(() => focused(page), SLOW).toBe(`copy-${id}`);
    const field = page.locator(`#copy-${id}`);
    const shown = await field.evaluate((el) => {
      const f = el as HTMLInputElement;
      return { value: f.value, selected: f.value.slice(f.selectionStart ?? 0, f.selectionEnd ?? 0) };
    });
    expect(shown.value).toMatch(new RegExp(`^${suite.url}/r/\\w+$`));
    expect(shown.selected).toBe(shown.value);
    await expect.poll(() => announced(page), SLOW).toBe('The browser did not allow copying. The link is selected: copy it yourself.');
    expect(await page.getByText('Copying was not allowed: copy the selected link yourself.').count()).toBe(1);
    await viewportShots(page, 'a11y-codes-copy-refused', field);
    expect(problems).toEqual([]);
    await context.close();
  });
});
