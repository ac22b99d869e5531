// The web app through a real browser on a real server: first run, keys, members,
// roles, sign in and out. Every page is checked with axe-core and photographed.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CHROMIUM, HAVE_CHROMIUM, checkPage, newContext, useBrowserSuite } from '../support/browser.ts';

if (!HAVE_CHROMIUM) console.warn(`browser tests skipped: ${CHROMIUM} is missing (apt-get install -y chromium)`);

const OWNER = { email: 'owner@example.com', password: 'owner password 1' };
const VIEWER_PASSWORD = 'viewer password 1';
// A loaded machine can starve a page past its waits; the project retries such a test on the
// same server, so a test that creates something names it afresh on each try.
let tries = 0;

let setupUrl: string;
const suite = useBrowserSuite({
  db: 'web.db',
  account: false,
  seed: async ({ server }) => {
    for (let i = 0; i < 100 && !/first run/.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
    setupUrl = /(http:\S+\/app\/setup\/\S+)/.exec(server.output())?.[1] as string;
  },
  timeout: 120_000,
});

/** axe-core finds nothing serious or critical, nothing broke the CSP, and the page is photographed. */
const api = (p: string, init: RequestInit & { key?: string } = {}) =>
  fetch(`${suite.url}${p}`, {
    ...init,
    headers: { 'content-type': 'application/json', ...(init.key ? { authorization: `Bearer ${init.key}` } : {}) },
  });

describe.skipIf(!HAVE_CHROMIUM)('the web app in a browser', () => {
  it('first run: the setup link creates the owner, who lands on “Create your first code”; bad input is named next to each field', {
    timeout: 240_000,
  }, async () => {
    const { context, page, problems } = await newContext(suite.browser);
    await page.goto(`${suite.url}/`);
    await page.waitForURL(/\/app\/sign-in$/);
    await page.getByText('This instance is not set up yet').waitFor();
    await checkPage(page, problems, 'sign-in-first-run');

    await page.goto(setupUrl);
    await page.getByRole('heading', { name: 'Set up qrtrack' }).waitFor();
    await page.getByLabel('Email').fill('not an email');
    await page.getByLabel('Password').fill('short');
    await page.getByRole('button', { name: 'Create account' }).click();
    await expect.poll(() => page.locator('#f-email-error').textContent()).toMatch(/Enter an email address/);
    expect(await page.locator('#f-password-error').textContent()).toMatch(/at least 10 characters/);
    expect(await page.locator('#f-accountName-error').textContent()).toMatch(/Enter a name for the account/);
    await checkPage(page, problems, 'setup-errors');

    await page.getByLabel('Account name').fill('Acme');
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Create account' }).click();
    // The new owner lands on the codes list, which starts the first code (and points API users to keys).
    await page.waitForURL(/\/app\/codes$/);
    await page.getByRole('heading', { name: 'Create your first code' }).waitFor();
    await checkPage(page, problems, 'first-code');
    await page.getByRole('link', { name: 'Account → API keys' }).click();
    await page.waitForURL(/\/app\/account\/keys$/);
    await page.getByRole('heading', { name: 'Create an API key' }).waitFor();
    await checkPage(page, problems, 'keys-empty');

    // The same link again is refused.
    await page.goto(setupUrl);
    await page.getByRole('heading', { name: 'This setup link cannot be used' }).waitFor();
    expect(await page.locator('.form-error').textContent()).toMatch(/already been used/);
    await context.close();
  });

  it('a wrong password is said next to the password field; the right one signs in', { timeout: 180_000 }, async () => {
    const { context, page, problems } = await newContext(suite.browser, { dark: true });
    await page.goto(`${suite.url}/app/sign-in`);
    await page.getByLabel('Email').fill(OWNER.email);
    await page.getByLabel('Password').fill('wrong password!!');
    await page.getByRole('button', { name: 'Sign in' }).click();
    await expect.poll(() => page.locator('#f-password-error').textContent()).toBe('Email or password is wrong');
    expect(await page.getByLabel('Password').getAttribute('aria-invalid')).toBe('true');
    await checkPage(page, problems, 'sign-in-wrong-password-dark');
    await page.getByLabel('Password').fill(OWNER.password);
    await page.getByRole('button', { name: 'Sign in' }).click();
    await page.waitForURL(/\/app\/codes$/);
    await page.getByText('No codes yet').waitFor();
    await checkPage(page, problems, 'codes-empty-dark');
    await context.close();
  });

  it('the owner creates a key in the UI, it works against /v1, and revoking it makes it 401', { timeout: 180_000 }, async () => {
    const keyName = `Website ${++tries}`;
    const { context, page, problems } = await newContext(suite.browser);
    await signIn(page, OWNER);
    await page.goto(`${suite.url}/app/account/keys`);
    await page.getByRole('heading', { name: 'Create an API key' }).waitFor();
    await page.getByRole('checkbox', { name: /qr:read/ }).uncheck();
    await page.getByRole('button', { name: 'Create key' }).click();
    await expect.poll(() => page.locator('#f-name-error').textContent()).toMatch(/Enter a name for the key/);
    expect(await page.locator('#f-scopes-error').textContent()).toMatch(/Tick at least one scope/);
    await page.getByLabel('Name').fill(keyName);
    await page.getByRole('checkbox', { name: /qr:read/ }).check();
    await page.getByRole('checkbox', { name: /qr:write/ }).check();
    await page.getByRole('button', { name: 'Create key' }).click();
    const secretBox = page.getByLabel('Your new API key');
    await secretBox.waitFor();
    const secret = await secretBox.inputValue();
    expect(secret).toMatch(/^qrt_[A-Za-z0-9]{40}$/);
    await checkPage(page, problems, 'keys-created');

    const created = await api('/v1/qr', {
      method: 'POST',
      key: secret,
      body: JSON.stringify({ title: 'Spring menu', url: 'https://example.com/menu' }),
    });
    expect(created.status).toBe(201);
    await page.getByRole('button', { name: 'Done' }).click();
    const row = page.getByRole('row', { name: new RegExp(keyName) });
    await expect.poll(() => row.textContent()).toContain(`by ${OWNER.email}`);

    await page.getByRole('button', { name: `Revoke ${keyName}` }).click();
    await page.getByRole('button', { name: 'Revoke key' }).click();
    await row.getByText('Revoked').waitFor();
    expect((await api('/v1/qr', { key: secret })).status).toBe(401);
    await checkPage(page, problems, 'keys-revoked');

    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    await page.getByRole('link', { name: 'Spring menu', exact: true }).waitFor();
    await checkPage(page, problems, 'codes-list');
    await context.close();
  });

  it('the owner invites a viewer, who signs in with the link and cannot create or manage keys', { timeout: 240_000 }, async () => {
    const VIEWER = { email: `viewer${++tries}@example.com`, password: VIEWER_PASSWORD };
    const owner = await newContext(suite.browser);
    await signIn(owner.page, OWNER);
    await owner.page.goto(`${suite.url}/app/account/members`);
    await owner.page
      .getByLabel('Role', { exact: true })
      .selectOption('viewer', { timeout: 10_000 })
      .catch(async (err: unknown) => {
        throw new Error(
          `${String(err)}\nat ${owner.page.url()}: ${await owner.page.locator('body').innerText()} ${owner.problems.join('; ')}`,
        );
      });
    await owner.page.getByRole('button', { name: 'Create invite link' }).click();
    const inviteUrl = await owner.page.getByLabel('Invite link').inputValue();
    expect(inviteUrl).toMatch(/\/app\/invite\/[A-Za-z0-9_-]{43}$/);
    await checkPage(owner.page, owner.problems, 'members-invite');

    const viewer = await newContext(suite.browser);
    await viewer.page.goto(inviteUrl);
    await viewer.page.getByRole('heading', { name: 'Join Acme' }).waitFor();
    await checkPage(viewer.page, viewer.problems, 'invite');
    await viewer.page.getByLabel('Email').fill(VIEWER.email);
    await viewer.page.getByLabel('Password').fill(VIEWER.password);
    await viewer.page.getByRole('button', { name: 'Join Acme' }).click();
    await viewer.page.waitForURL(/\/app\/codes$/);
    await viewer.page.getByRole('link', { name: 'Spring menu', exact: true }).waitFor();

    // A viewer's session reads but cannot create; the account area has no keys for them.
    const status = await viewer.page.evaluate(async () => {
      const s = await (await fetch('/v1/session')).json();
      const res = await fetch('/v1/qr', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': s.csrfToken },
        body: JSON.stringify({ title: 'x', url: 'https://example.com' }),
      });
      return { status: res.status, body: await res.json() };
    });
    expect(status).toEqual({ status: 403, body: { error: 'insufficient scope: requires qr:write (your role is viewer)' } });
    await viewer.page.getByRole('link', { name: 'Account', exact: true }).click();
    await viewer.page.waitForURL(/\/app\/account\/members$/);
    expect(await viewer.page.getByRole('link', { name: 'API keys' }).count()).toBe(0);
    expect(await viewer.page.getByRole('button', { name: 'Create invite link' }).count()).toBe(0);
    await checkPage(viewer.page, viewer.problems, 'members-as-viewer');
    await viewer.page.goto(`${suite.url}/app/account/keys`);
    await expect.poll(() => viewer.page.locator('.form-error').textContent()).toMatch(/Only an owner/);

    // The owner sees the new member with the viewer role.
    await owner.page.getByRole('button', { name: 'Done' }).click();
    await owner.page.reload();
    await expect.poll(() => owner.page.getByLabel(`Role of ${VIEWER.email}`, { exact: true }).inputValue()).toBe('viewer');
    await checkPage(owner.page, owner.problems, 'members-list');
    await viewer.context.close();
    await owner.context.close();
  });

  it('signs out: the app returns to the sign-in page and the session no longer works', { timeout: 180_000 }, async () => {
    const { context, page, problems } = await newContext(suite.browser);
    await signIn(page, OWNER);
    await page.goto(`${suite.url}/app/account/profile`);
    await page.getByRole('heading', { name: 'Change password' }).waitFor();
    await checkPage(page, problems, 'profile');
    await page.getByRole('button', { name: 'Sign out', exact: true }).click();
    await page.waitForURL(/\/app\/sign-in$/);
    expect(await page.evaluate(async () => (await fetch('/v1/session')).status)).toBe(401);
    await page.goto(`${suite.url}/app/account/keys`);
    await page.waitForURL(/\/app\/sign-in\?next=/);
    await context.close();
  });
});

async function signIn(page: Page, who: { email: string; password: string }): Promise<void> {
  await page.goto(`${suite.url}/app/sign-in`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/app\/codes$/);
}
