// Sessions under the web app, through a real browser: a session that ends mid-edit sends the
// user to sign in with a word of why, and the studio's unsaved edits come back after it; two
// tabs of one user in two accounts each act in the account they show.
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, screenshots, useBrowserSuite } from '../support/browser.ts';

// Open sign-up: the owner is also a member of an account someone else signed up for.
const suite = useBrowserSuite({ db: 'sessions.db', env: { SIGNUP: 'open' }, account: { viewer: false } });
// A loaded machine can starve a page and the project retries the test on the same server:
// what a test creates is named afresh on each try.
let tries = 0;

const json = { 'content-type': 'application/json' };

async function createCode(title: string): Promise<string> {
  const res = await fetch(`${suite.url}/v1/qr`, {
    method: 'POST',
    headers: { ...json, authorization: `Bearer ${suite.account.key}` },
    body: JSON.stringify({ title, contentType: 'url', url: 'https://example.com/menu' }),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  return ((await res.json()) as { item: { id: string } }).item.id;
}

async function codeById(id: string): Promise<{ status: number; title?: string }> {
  const res = await fetch(`${suite.url}/v1/qr/${id}`, { headers: { authorization: `Bearer ${suite.account.key}` } });
  return { status: res.status, title: res.ok ? ((await res.json()) as { item: { title: string } }).item.title : undefined };
}

/** Ends the browser's session from another client holding the same cookie (as "sign out" elsewhere does). */
async function endSession(context: BrowserContext): Promise<void> {
  const cookie = (await context.cookies()).find((c) => c.name === 'qrtrack_session');
  if (!cookie) throw new Error('no session cookie in the browser');
  const headers = { cookie: `${cookie.name}=${cookie.value}` };
  const session = (await (await fetch(`${suite.url}/v1/session`, { headers })).json()) as { csrfToken: string };
  const res = await fetch(`${suite.url}/v1/session`, { method: 'DELETE', headers: { ...headers, 'x-csrf-token': session.csrfToken } });
  expect(res.status).toBe(200);
}

async function signInHere(page: Page): Promise<void> {
  await page.getByLabel('Email').fill(OWNER.email);
  await page.getByLabel('Password').fill(OWNER.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
}

/** The 401s of the ended session, which Chromium logs; nothing else may be. */
const besides401 = (problems: string[]) => problems.filter((p) => !/status of 401/.test(p));

describe.skipIf(!HAVE_CHROMIUM)('sessions in the web app', () => {
  it('a session ended while a code is edited: the sign-in page says so, and the edit is offered back after signing in', {
    timeout: 180_000,
  }, async () => {
    const title = `Menu card ${++tries}`;
    const id = await createCode(title);
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/${id}/edit`);
    const titleField = page.getByLabel('Title', { exact: true });
    await expect.poll(() => titleField.inputValue()).toBe(title);
    await titleField.fill(`${title} (spring)`);

    await endSession(context);
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await page.waitForURL((u) => u.pathname === '/app/sign-in' && u.searchParams.get('next') === `/codes/${id}/edit`);
    const notice = page.getByRole('alert').filter({ hasText: 'Your session has ended' });
    await notice.waitFor();
    expect(await notice.textContent()).toBe(
      'Your session has ended (it expired, or you were signed out in another window). Sign in again to go on. Your unsaved changes are kept in this tab and offered back once you are in.',
    );
    await checkPage(page, besides401(problems), 'sign-in-session-ended');
    problems.length = 0;

    await signInHere(page);
    await page.waitForURL(new RegExp(`/app/codes/${id}/edit$`));
    await page.getByRole('heading', { name: 'Restore your unsaved changes?' }).waitFor();
    // Nothing is put into the form unasked: it shows the stored code until the user chooses.
    expect(await titleField.inputValue()).toBe(title);
    await checkPage(page, problems, 'studio-restore-offer');
    await page.getByRole('button', { name: 'Restore changes' }).click();
    expect(await titleField.inputValue()).toBe(`${title} (spring)`);
    expect(await page.getByRole('heading', { name: 'Restore your unsaved changes?' }).count()).toBe(0);
    await page.getByRole('button', { name: 'Save changes' }).first().click();
    await expect.poll(async () => (await codeById(id)).title).toBe(`${title} (spring)`);

    // Offered once: the page opened again offers nothing.
    await page.reload();
    await expect.poll(() => titleField.inputValue()).toBe(`${title} (spring)`);
    expect(await page.getByRole('heading', { name: 'Restore your unsaved changes?' }).count()).toBe(0);
    expect(problems).toEqual([]);
    await context.close();
  });

  it('a new code not yet created survives its session ending too; Discard forgets it', { timeout: 180_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    await page.getByLabel('Title', { exact: true }).fill('Opening hours');
    await page.getByRole('tab', { name: 'Text' }).click();
    await page.getByRole('textbox', { name: 'Text', exact: true }).fill('Mon to Fri, 9 to 5');

    await endSession(context);
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await page.waitForURL(/\/app\/sign-in\?next=%2Fcodes%2Fnew$/);
    await page.getByRole('alert').filter({ hasText: 'unsaved changes are kept' }).waitFor();
    await signInHere(page);
    await page.waitForURL(/\/app\/codes\/new$/);
    await page.getByRole('button', { name: 'Restore changes' }).click();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('Opening hours');
    await page.getByRole('tab', { name: 'Text', selected: true }).waitFor();
    expect(await page.getByRole('textbox', { name: 'Text', exact: true }).inputValue()).toBe('Mon to Fri, 9 to 5');

    // Signed out again: this time the kept edits are discarded.
    await endSession(context);
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await page.waitForURL(/\/app\/sign-in/);
    await signInHere(page);
    await page.waitForURL(/\/app\/codes\/new$/);
    await page.getByRole('button', { name: 'Discard them' }).click();
    expect(await page.getByLabel('Title', { exact: true }).inputValue()).toBe('');
    await page.reload();
    await page.locator('.preview__img').waitFor();
    expect(await page.getByRole('heading', { name: 'Restore your unsaved changes?' }).count()).toBe(0);
    expect(besides401(problems)).toEqual([]);
    await context.close();
  });

  it('"Sign out" says nothing of an ended session, and says (and shows) that the user is signed out', { timeout: 120_000 }, async () => {
    const { context, page } = await suite.signIn(OWNER);
    await page.getByRole('button', { name: 'Sign out' }).click();
    await page.waitForURL(/\/app\/sign-in$/);
    await page.getByRole('button', { name: 'Sign in' }).waitFor();
    expect(await page.getByText('Your session has ended').count()).toBe(0);
    await expect.poll(() => page.locator('#announcer').textContent()).toBe('You are signed out.');
    expect(await page.locator('.notice').filter({ hasText: 'You are signed out.' }).count()).toBe(1);
    await screenshots(page, 'a11y-signed-out');
    await context.close();
  });

  it('two tabs in two accounts: the tab still showing the first account creates its code there, and its images load', {
    timeout: 180_000,
  }, async () => {
    // The owner of Acme also joins Beta, an account someone else signed up for.
    const n = ++tries;
    const founder = { email: `beta${n}@example.com`, password: 'beta founder pass 1' };
    const signup = await fetch(`${suite.url}/v1/signup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ accountName: `Beta ${n}`, ...founder }),
    });
    expect(signup.status).toBe(201);
    const beta = (await signup.json()) as { csrfToken: string; account: { id: string } };
    const betaCookie = (signup.headers.get('set-cookie') ?? '').split(';')[0] as string;
    const invite = await fetch(`${suite.url}/v1/account/invites`, {
      method: 'POST',
      headers: { ...json, cookie: betaCookie, 'x-csrf-token': beta.csrfToken },
      body: JSON.stringify({ role: 'editor' }),
    });
    const token = ((await invite.json()) as { url: string }).url.split('/').pop();
    const joined = await fetch(`${suite.url}/v1/invites/${token}/accept`, { method: 'POST', headers: json, body: JSON.stringify(OWNER) });
    expect(joined.status).toBe(201);

    const { context, page: tabA, problems } = await suite.signIn(OWNER);
    const picker = (page: Page) => page.getByRole('combobox', { name: 'Account', exact: true });
    const accountOf = (page: Page) => picker(page).evaluate((s) => (s as HTMLSelectElement).selectedOptions[0]?.textContent ?? '');
    // Picking an account in the list is not switching: Switch (or Enter) is.
    const switchTo = async (page: Page, name: string) => {
      await picker(page).selectOption({ label: name });
      await page.getByRole('button', { name: `Switch to ${name}` }).click();
      await expect.poll(() => page.getByRole('button', { name: `Switch to ${name}` }).count()).toBe(0);
    };
    if ((await accountOf(tabA)) !== 'Acme') {
      await switchTo(tabA, 'Acme');
      await expect.poll(() => accountOf(tabA)).toBe('Acme');
    }
    const tabB = await context.newPage();
    await tabB.goto(`${suite.url}/app/codes`);
    await picker(tabB).waitFor();
    await switchTo(tabB, `Beta ${n}`);
    await expect.poll(() => accountOf(tabB)).toBe(`Beta ${n}`);
    // The session itself is now in Beta.
    const cookie = (await context.cookies()).find((c) => c.name === 'qrtrack_session');
    const sessionNow = (await (
      await fetch(`${suite.url}/v1/session`, { headers: { cookie: `qrtrack_session=${cookie?.value}` } })
    ).json()) as { account: { id: string } };
    expect(sessionNow.account.id).toBe(beta.account.id);

    // Tab A, untouched since, still shows Acme and creates a code there.
    expect(await accountOf(tabA)).toBe('Acme');
    await tabA.getByRole('link', { name: 'New code' }).click();
    await tabA.locator('.preview__img').waitFor();
    const title = `From tab A ${n}`;
    await tabA.getByLabel('Title', { exact: true }).fill(title);
    await tabA.getByLabel('Web address').fill('https://example.com/tab-a');
    await tabA.getByRole('button', { name: 'Create code' }).first().click();
    await tabA.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    const id = /codes\/([0-9a-f-]{36})\/edit/.exec(tabA.url())?.[1] as string;
    // In Acme (its key finds it), not in Beta (its owner does not).
    expect(await codeById(id)).toEqual({ status: 200, title });
    expect((await fetch(`${suite.url}/v1/qr/${id}`, { headers: { cookie: betaCookie } })).status).toBe(404);

    // Tab A's downloads load: the PNG and SVG links name its account.
    for (const link of ['#download-png', '#download-svg']) {
      const href = (await tabA.locator(link).getAttribute('href')) as string;
      const status = await tabA.evaluate(async (u) => (await fetch(u, { credentials: 'same-origin' })).status, href);
      expect(status, link).toBe(200);
    }
    await checkPage(tabA, problems, 'two-tabs-created-in-a');
    // And the list's thumbnail of the new code is drawn.
    await tabA.getByRole('link', { name: 'Codes', exact: true }).click();
    const thumb = tabA.locator(`.code-row[data-id="${id}"] .code-row__thumb img`);
    await thumb.scrollIntoViewIfNeeded();
    await expect
      .poll(() => thumb.evaluate((img) => (img as HTMLImageElement).complete && (img as HTMLImageElement).naturalWidth > 0))
      .toBe(true);
    // Tab B's list (Beta) does not have it.
    await tabB.reload();
    await tabB.getByRole('link', { name: 'Create your first code' }).waitFor();
    expect(await tabB.locator('.code-row').count()).toBe(0);
    expect(await accountOf(tabB)).toBe(`Beta ${n}`);
    expect(problems).toEqual([]);
    await context.close();
  });
});
