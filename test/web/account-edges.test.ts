// The account pages at their edges, through a real browser: a key name of 80 characters
// with no space, an editor who opens the keys page by its address, the last owner's role,
// and a used invite opened by someone signed in.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, VIEWER, acceptInvite, checkPage, useBrowserSuite } from '../support/browser.ts';

const EDITOR = { email: 'editor@example.com', password: 'editor password 1' };
// A loaded machine can starve a page past its waits and the project retries the test on the
// same server: what a test creates is named afresh on each try.
let tries = 0;

// Open sign-up: a member who owns an account of their own is one of the edges.
const suite = useBrowserSuite({
  db: 'account-edges.db',
  env: { SIGNUP: 'open' },
  seed: async () => acceptInvite(suite.url, await inviteUrl('editor'), EDITOR),
});

async function inviteUrl(role: 'owner' | 'editor' | 'viewer'): Promise<string> {
  return ((await (await suite.asOwner('POST', '/account/invites', { role })).json()) as { url: string }).url;
}

/** The page is no wider than the window: nothing scrolls sideways. */
const scrollWidth = (page: Page) => page.evaluate(() => document.documentElement.scrollWidth);

describe.skipIf(!HAVE_CHROMIUM)('the account pages at their edges', () => {
  it('a key name of 80 characters without a space wraps: no sideways scrolling, and the key prefix stays on one line', {
    timeout: 180_000,
  }, async () => {
    const name = `${String(++tries)}${'A'.repeat(79)}`;
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/keys`);
    await page.getByLabel('Name').fill(name);
    await page.getByRole('button', { name: 'Create key' }).click();
    await page.getByLabel('Your new API key').waitFor();
    // The phone: the notice naming the key stays inside its card.
    expect(await page.locator('#new-key-notice').textContent()).toContain(name);
    expect(await scrollWidth(page)).toBeLessThanOrEqual(390);
    await checkPage(page, problems, 'keys-long-name-created');

    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    await row.waitFor();
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      expect(await scrollWidth(page), `${width} px`).toBeLessThanOrEqual(width);
      // Every row's prefix is one line: its boxes (one per text node and line) share one top.
      const lines = await page
        .locator('.keys-table td[data-label="Key"] code')
        .evaluateAll((codes) => codes.map((c) => new Set([...c.getClientRects()].map((r) => Math.round(r.top))).size));
      expect(lines, `${width} px`).toEqual(lines.map(() => 1));
    }
    await checkPage(page, problems, 'keys-long-name-list');

    // The revoke question repeats the name; it wraps too.
    await page.setViewportSize({ width: 1280, height: 800 });
    await page.getByRole('button', { name: `Revoke ${name}` }).click();
    await page.getByRole('button', { name: 'Revoke key' }).waitFor();
    expect(await scrollWidth(page)).toBeLessThanOrEqual(1280);
    await checkPage(page, problems, 'keys-long-name-revoke');
    await context.close();
  });

  it('a key made to expire is listed with its expiry; rotating it shows the successor once and marks the old key rotated', {
    timeout: 180_000,
  }, async () => {
    const name = `Rotating ${String(++tries)}`;
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/keys`);
    await page.getByLabel('Name').fill(name);
    await page.getByLabel('Expires').selectOption({ label: 'In 90 days' });
    await page.getByRole('button', { name: 'Create key' }).click();
    const first = await page.getByLabel('Your new API key').inputValue();
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: new RegExp(name) });
    const in90 = new Date(Date.now() + 90 * 86_400_000).toISOString().slice(0, 10);
    expect(await row.locator('td[data-label="Expires"] time').getAttribute('datetime')).toMatch(new RegExp(`^${in90}`));

    await page.getByRole('button', { name: `Rotate ${name}` }).click();
    await page.getByRole('button', { name: 'Rotate key' }).click();
    const secret = page.getByLabel('Your new API key');
    await secret.waitFor();
    await expect.poll(() => page.evaluate(() => document.activeElement?.id)).toBe('new-key-secret');
    expect(await secret.inputValue()).not.toBe(first);
    expect(await page.locator('#new-key-notice').textContent()).toMatch(
      /rotated\. Copy the new key now: it is shown only once\. The old key keeps working until/,
    );
    // Two rows of that name: the old one (rotated, revocable, no second rotation) and its successor.
    await expect.poll(() => page.getByRole('row', { name: new RegExp(name) }).count()).toBe(2);
    await page.getByText('rotated: replaced by a new key').waitFor();
    expect(await page.getByRole('button', { name: `Rotate ${name}` }).count()).toBe(1);
    expect(await page.getByRole('button', { name: `Revoke ${name}` }).count()).toBe(2);
    for (const width of [390, 1280]) {
      await page.setViewportSize({ width, height: width === 390 ? 844 : 800 });
      expect(await scrollWidth(page), `${width} px`).toBeLessThanOrEqual(width);
      await checkPage(page, problems, `keys-rotated-${width}`);
    }
    await context.close();
  });

  it('an editor who opens the keys page by its address sees why, and no form', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(EDITOR);
    await page.goto(`${suite.url}/app/account/keys`);
    await page.getByText('Only an owner of the account can see and create API keys (your role is editor).').waitFor();
    expect(await page.getByRole('heading', { name: 'Create an API key' }).count()).toBe(0);
    expect(await page.locator('form, input').count()).toBe(0);
    expect(await page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    await checkPage(page, problems, 'keys-as-editor');
    await context.close();
  });

  it("the last owner's role cannot be lowered, and says why; with a second owner it can", { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/members`);
    const mine = page.getByLabel(`Role of ${OWNER.email}`, { exact: true });
    await expect.poll(() => mine.isDisabled()).toBe(true);
    const hint = page.locator(`[id="${await mine.getAttribute('aria-describedby')}"]`);
    expect(await hint.textContent()).toMatch(/needs at least one owner/);
    expect(await page.getByLabel(`Role of ${EDITOR.email}`, { exact: true }).isDisabled()).toBe(false);
    await checkPage(page, problems, 'members-last-owner');

    // The editor is made owner (which asks first): either owner may now step down.
    await page.getByLabel(`Role of ${EDITOR.email}`, { exact: true }).selectOption('owner');
    await page.getByRole('button', { name: `Change role of ${EDITOR.email} to Owner` }).click();
    await page.getByRole('button', { name: 'Make owner' }).click();
    await expect.poll(() => mine.isDisabled()).toBe(false);
    expect(await page.locator('[id^="last-owner-"]').count()).toBe(0);
    await page.getByLabel(`Role of ${EDITOR.email}`, { exact: true }).selectOption('editor');
    await page.getByRole('button', { name: `Change role of ${EDITOR.email} to Editor` }).click();
    await expect.poll(() => mine.isDisabled()).toBe(true);
    expect(problems).toEqual([]);
    await context.close();
  });

  it("an owner's own row offers Change password instead of a reset link, and it opens the password form", {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/members`);
    const own = page.getByRole('row').filter({ hasText: `${OWNER.email} (you)` });
    const link = own.getByRole('link', { name: 'Change password' });
    await link.waitFor();
    // A reset link for oneself is refused by the server (a new password needs the current one).
    expect(await page.getByRole('button', { name: `Make a password reset link for ${OWNER.email}` }).count()).toBe(0);
    expect(await own.getByRole('button').count()).toBe(0);
    // Other members keep theirs.
    expect(await page.getByRole('button', { name: `Make a password reset link for ${EDITOR.email}` }).count()).toBe(1);
    expect(await link.getAttribute('href')).toBe('/app/account/profile#password');
    await checkPage(page, problems, 'members-own-row');

    await link.click();
    await page.waitForURL(`${suite.url}/app/account/profile#password`);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    const current = page.getByLabel('Current password');
    await current.waitFor();
    expect(await page.getByLabel('New password').count()).toBe(1);
    await checkPage(page, problems, 'profile-password-from-members');
    await context.close();
  });

  it('a reset link for a member who owns another account is refused, and the page says why in plain words', {
    timeout: 120_000,
  }, async () => {
    const other = { email: `founder${++tries}@example.com`, password: 'founder password 1' };
    const signup = await fetch(`${suite.url}/v1/signup`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify({ accountName: `Founder Co ${tries}`, ...other }),
    });
    expect(signup.status).toBe(201);
    await acceptInvite(suite.url, await inviteUrl('viewer'), other);
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/members`);
    await page.getByRole('button', { name: `Make a password reset link for ${other.email}` }).click();
    const alert = page.getByRole('alert').filter({ hasText: 'also belongs to an account you do not own' });
    await alert.waitFor();
    expect(await alert.textContent()).toBe(
      `No reset link for ${other.email}. This member also belongs to an account you do not own, and a new password would open that account too; they can reset it with a link from someone who owns all their accounts, or from the server (npm run -s qrtrack -- users reset-link EMAIL)`,
    );
    expect(await page.locator('#reset-url').count()).toBe(0);
    // The refusal is the 403 the browser logs; nothing else may be.
    const expected = problems.filter((p) => /status of 403/.test(p));
    expect(expected).toHaveLength(1);
    await checkPage(
      page,
      problems.filter((p) => !expected.includes(p)),
      'members-reset-refused',
    );
    await context.close();
  });

  it('a used invite opened while signed in does not offer to sign in', { timeout: 120_000 }, async () => {
    const url = await inviteUrl('viewer');
    await acceptInvite(suite.url, url, { email: `joined${++tries}@example.com`, password: 'joined password 1' });
    const { context, page, problems } = await suite.signIn(VIEWER);
    await page.goto(url);
    await page.getByRole('heading', { name: 'This invite cannot be used' }).waitFor();
    await page.getByRole('link', { name: 'go to your codes' }).waitFor();
    expect(await page.getByRole('link', { name: 'sign in' }).count()).toBe(0);
    // The invite preview answers 4xx for a used link, which Chromium logs.
    problems.length = 0;
    await checkPage(page, problems, 'invite-used-signed-in');
    await context.close();
  });
});
