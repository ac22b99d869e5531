// Browser-test support, shared by every file of test/web: Debian's Chromium driven by
// playwright-core, a real server per file with the account set up over HTTP, sign-in through
// the sign-in page, axe-core injected into each page, screenshots at phone and desktop widths
// into a temp folder. `useBrowserSuite` is the set-up and tear-down each file used to write out.
import fs from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { createRequire } from 'node:module';
import type { Browser, BrowserContext, Locator, Page, Request } from 'playwright-core';
import { afterAll, beforeAll, expect } from 'vitest';
import { type RunningServer, startServer } from './processes.ts';
import { tempDir } from './test-app.ts';

import { HAVE_CHROMIUM, launch } from './chromium.ts';

export { CHROMIUM, HAVE_CHROMIUM, launch } from './chromium.ts';
export const SHOTS_DIR = path.join(os.tmpdir(), 'qrtrack-web-shots');

const axeSource = fs.readFileSync(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');

/** A fresh browser profile at phone width; console CSP errors are collected in `problems`. */
export async function newContext(
  browser: Browser,
  opts: { dark?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({ viewport: { width: 390, height: 844 }, colorScheme: opts.dark ? 'dark' : 'light' });
  // A loaded CI machine can be slow to paint; waits are for elements, never for time.
  context.setDefaultTimeout(45_000);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error' && /Content Security Policy|Refused to/i.test(m.text())) problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  watchSlowRequests(context);
  return { context, page, problems };
}

/**
 * Logs every request of the context still unanswered after 10 s (each one once), so a test a
 * loaded machine stalls says which request it waited for.
 */
export function watchSlowRequests(context: BrowserContext): void {
  const pending = new Map<Request, number>();
  context.on('request', (r) => pending.set(r, Date.now()));
  context.on('requestfinished', (r) => pending.delete(r));
  context.on('requestfailed', (r) => pending.delete(r));
  const timer = setInterval(() => {
    for (const [r, at] of pending) {
      if (Date.now() - at < 10_000) continue;
      console.log(`slow request: ${r.method()} ${r.url()} unanswered after ${Math.round((Date.now() - at) / 1000)} s`);
      pending.delete(r);
    }
  }, 2_000);
  context.on('close', () => clearInterval(timer));
}

interface AxeViolation {
  id: string;
  impact: string | null;
  help: string;
  nodes: Array<{ target: string[] }>;
}

/** Runs axe-core in the page (through the debugger, so the page's CSP stays strict); returns serious and critical violations. */
export async function axeViolations(page: Page): Promise<string[]> {
  await page.evaluate(axeSource);
  const violations = await page.evaluate(async () => {
    const axe = (globalThis as unknown as { axe: { run(ctx: Document, o: object): Promise<{ violations: AxeViolation[] }> } }).axe;
    const r = await axe.run(document, { resultTypes: ['violations'] });
    return r.violations.map((v) => ({ id: v.id, impact: v.impact, help: v.help, nodes: v.nodes.map((n) => ({ target: n.target })) }));
  });
  return violations
    .filter((v) => v.impact === 'serious' || v.impact === 'critical')
    .map((v) => `${v.id} (${v.impact}): ${v.help} at ${v.nodes.map((n) => n.target.join(' ')).join(', ')}`);
}

/** A page passes axe-core (no serious or critical violation) and logged no problem; then its screenshots. */
export async function checkPage(page: Page, problems: string[], name: string): Promise<void> {
  expect(await axeViolations(page), `${name}: accessibility`).toEqual([]);
  expect(problems, `${name}: console`).toEqual([]);
  await screenshots(page, name);
}

/** Screenshots at 390 px and 1280 px (full page), back to 390 px after. */
export async function screenshots(page: Page, name: string): Promise<string[]> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const files: string[] = [];
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    const file = path.join(SHOTS_DIR, `${name}-${width}.png`);
    await page.screenshot({ path: file, fullPage: true });
    files.push(file);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  return files;
}

export const OWNER = { email: 'owner@example.com', password: 'owner password 1' };
export const VIEWER = { email: 'viewer@example.com', password: 'viewer password 1' };

export interface TestAccount {
  /** An API key with both scopes. */
  key: string;
  accountId: string;
  ownerCookie: string;
  ownerCsrf: string;
}

async function expectOk(res: Response, what: string): Promise<Response> {
  if (res.status >= 300) throw new Error(`${what}: ${res.status} ${await res.text()}`);
  return res;
}

/**
 * First run over HTTP: takes the setup link the server printed, creates the account 'Acme'
 * with OWNER, an API key, and (unless `viewer` is false) VIEWER as a member through an invite.
 */
export async function setUpAccount(server: { url: string; output(): string }, opts: { viewer?: boolean } = {}): Promise<TestAccount> {
  for (let i = 0; i < 200 && !/\/app\/setup\//.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
  const token = /\/app\/setup\/(\S+)/.exec(server.output())?.[1];
  if (!token) throw new Error(`no setup link in the server's output:\n${server.output()}`);
  const json = { 'content-type': 'application/json' };
  const res = await expectOk(
    await fetch(`${server.url}/v1/setup`, {
      method: 'POST',
      headers: json,
      body: JSON.stringify({ token, accountName: 'Acme', ...OWNER }),
    }),
    'setup',
  );
  const session = (await res.json()) as { csrfToken: string; account: { id: string } };
  const ownerCookie = (res.headers.get('set-cookie') ?? '').split(';')[0] as string;
  const asOwner = async (p: string, body: object) =>
    expectOk(
      await fetch(`${server.url}/v1${p}`, {
        method: 'POST',
        headers: { ...json, cookie: ownerCookie, 'x-csrf-token': session.csrfToken },
        body: JSON.stringify(body),
      }),
      p,
    );
  const made = await asOwner('/account/keys', { name: 'test', scopes: ['qr:read', 'qr:write'] });
  const key = ((await made.json()) as { secret: string }).secret;
  if (opts.viewer !== false) {
    const invite = (await (await asOwner('/account/invites', { role: 'viewer' })).json()) as { url: string };
    await acceptInvite(server.url, invite.url, VIEWER);
  }
  return { key, accountId: session.account.id, ownerCookie, ownerCsrf: session.csrfToken };
}

/**
 * Signs in through the sign-in page in a fresh profile (390 px wide) and waits for the codes
 * list. `problems` collects console errors and any request to another host, from then on.
 */
export async function signedInPage(
  browser: Browser,
  serverUrl: string,
  who: { email: string; password: string },
  opts: { timezoneId?: string; dark?: boolean; acceptDownloads?: boolean } = {},
): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  const context = await browser.newContext({
    viewport: { width: 390, height: 844 },
    timezoneId: opts.timezoneId,
    colorScheme: opts.dark ? 'dark' : 'light',
    acceptDownloads: opts.acceptDownloads,
  });
  context.setDefaultTimeout(45_000);
  watchSlowRequests(context);
  const page = await context.newPage();
  const problems: string[] = [];
  page.on('console', (m) => {
    if (m.type() === 'error') problems.push(m.text());
  });
  page.on('pageerror', (e) => problems.push(`page error: ${e.message}`));
  page.on('request', (r) => {
    // blob: and data: URLs are made in the page (the studio's preview), not fetched.
    if (!/^(blob|data):/.test(r.url()) && !r.url().startsWith(serverUrl)) problems.push(`fetched from outside: ${r.url()}`);
  });
  await page.goto(`${serverUrl}/app/sign-in`);
  await page.getByLabel('Email').fill(who.email);
  await page.getByLabel('Password').fill(who.password);
  await page.getByRole('button', { name: 'Sign in' }).click();
  await page.waitForURL(/\/app\/codes$/);
  // Reading the session before signing in answers 401 by design: only what follows counts.
  problems.length = 0;
  return { context, page, problems };
}

/** Screenshots of the window (not the whole page) at 390 px and 1280 px, `target` scrolled into view: for a state deep in a long page. */
export async function viewportShots(page: Page, name: string, target?: Locator): Promise<string[]> {
  fs.mkdirSync(SHOTS_DIR, { recursive: true });
  const files: string[] = [];
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await target?.scrollIntoViewIfNeeded();
    const file = path.join(SHOTS_DIR, `${name}-${width}.png`);
    await page.screenshot({ path: file });
    files.push(file);
  }
  await page.setViewportSize({ width: 390, height: 844 });
  return files;
}

/** An invite link accepted over HTTP, as a new user or an existing one (with their password). */
export async function acceptInvite(serverUrl: string, inviteUrl: string, who: { email: string; password: string }): Promise<void> {
  const token = inviteUrl.split('/').pop() ?? '';
  await expectOk(
    await fetch(`${serverUrl}/v1/invites/${token}/accept`, {
      method: 'POST',
      headers: { 'content-type': 'application/json' },
      body: JSON.stringify(who),
    }),
    'accepting the invite',
  );
}

export interface SuiteOptions {
  /** The SQLite file's name, in a temp folder of this run; without it, no server (the tests start their own). */
  db?: string;
  /** More of the server's environment (SIGNUP, COUNTRY_HEADER, ...). */
  env?: Record<string, string>;
  /** The account 'Acme' set up over HTTP (setUpAccount; by default with VIEWER), or `false` for a server left at its first run. */
  account?: { viewer?: boolean } | false;
  /** Data made once the account exists and before the browser starts. */
  seed?: (suite: BrowserSuite) => Promise<void>;
  /** Let beforeAll take this long (a seed that writes many scans); 180 s by default. */
  timeout?: number;
}

export interface BrowserSuite {
  readonly server: RunningServer;
  readonly url: string;
  readonly dbUrl: string;
  readonly browser: Browser;
  /** The account of `setUpAccount`; absent with `account: false`. */
  readonly account: TestAccount;
  /** The owner's session of the set-up sends a /v1 request; a status of 300 or more throws. */
  asOwner(method: string, p: string, body?: object): Promise<Response>;
  /** A fresh profile signed in through the sign-in page (signedInPage). */
  signIn(who: { email: string; password: string }, opts?: Parameters<typeof signedInPage>[3]): ReturnType<typeof signedInPage>;
}

/**
 * Registers a file's beforeAll and afterAll: a server on its own SQLite file, the account set
 * up, `seed`, then Chromium; both closed at the end. What it returns is read inside tests and
 * hooks (it throws when read before the set-up ran).
 */
export function useBrowserSuite(opts: SuiteOptions): BrowserSuite {
  let server: RunningServer | undefined;
  let browser: Browser | undefined;
  let account: TestAccount | undefined;
  const dbUrl = opts.db === undefined ? '' : `sqlite:${path.join(tempDir(), opts.db)}`;
  const ready = <T>(value: T | undefined, what: string): T => {
    if (value === undefined) throw new Error(`the browser suite's ${what} is read before its set-up ran (or it has none)`);
    return value;
  };
  const suite: BrowserSuite = {
    get server() {
      return ready(server, 'server');
    },
    get url() {
      return ready(server, 'server').url;
    },
    dbUrl,
    get browser() {
      return ready(browser, 'browser');
    },
    get account() {
      return ready(account, 'account');
    },
    async asOwner(method, p, body) {
      const { ownerCookie, ownerCsrf } = suite.account;
      const res = await fetch(`${suite.url}/v1${p}`, {
        method,
        headers: { 'content-type': 'application/json', cookie: ownerCookie, 'x-csrf-token': ownerCsrf },
        body: body === undefined ? undefined : JSON.stringify(body),
      });
      return expectOk(res, `${method} ${p}`);
    },
    signIn: (who, signInOpts) => signedInPage(suite.browser, suite.url, who, signInOpts),
  };
  // Without Chromium the file's describe.skipIf skips every test: nothing to start.
  if (!HAVE_CHROMIUM) return suite;
  beforeAll(async () => {
    if (opts.db !== undefined) {
      server = await startServer({ DATABASE_URL: dbUrl, ...opts.env });
      if (opts.account !== false) account = await setUpAccount(server, opts.account);
    }
    await opts.seed?.(suite);
    browser = await launch();
    console.log(`screenshots in ${SHOTS_DIR}`);
  }, opts.timeout ?? 180_000);
  afterAll(async () => {
    await browser?.close();
    await server?.stop();
  });
  return suite;
}
