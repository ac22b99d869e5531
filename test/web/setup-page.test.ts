// The first-run setup page through a real browser: what it says about who joins after the
// owner follows the server's SIGNUP setting.
import path from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { type RunningServer, startServer } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';
import { HAVE_CHROMIUM, checkPage, newContext, useBrowserSuite } from '../support/browser.ts';

// A server of its own per SIGNUP setting, started by each test: the suite gives only the browser.
const suite = useBrowserSuite({});
const servers: RunningServer[] = [];

/** The setup link a fresh server printed at start. */
async function setupLink(server: RunningServer): Promise<string> {
  for (let i = 0; i < 200 && !/\/app\/setup\//.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
  const link = /https?:\/\/\S+\/app\/setup\/\S+/.exec(server.output())?.[0];
  if (!link) throw new Error(`no setup link in the server's output:\n${server.output()}`);
  return link;
}

describe.skipIf(!HAVE_CHROMIUM)('the setup page', () => {
  afterAll(async () => {
    for (const s of servers) await s.stop();
  });

  for (const [signup, said, notSaid] of [
    [
      'open',
      /This link works once; after it, others join by invitation or create an account of their own on the sign-up page\./,
      /people join by invitation\./,
    ],
    ['invite', /This link works once; after it, people join by invitation\./, /sign-up/],
  ] as const) {
    it(`says who joins after the owner when SIGNUP=${signup}`, { timeout: 120_000 }, async () => {
      const server = await startServer({ DATABASE_URL: `sqlite:${path.join(tempDir(), `setup-${signup}.db`)}`, SIGNUP: signup });
      servers.push(server);
      const { context, page, problems } = await newContext(suite.browser);
      await page.goto(await setupLink(server));
      await page.getByRole('heading', { name: 'Set up qrtrack' }).waitFor();
      const intro = page.locator('.public__intro');
      await expect.poll(() => intro.textContent()).toMatch(said);
      expect(await intro.textContent()).not.toMatch(notSaid);
      await checkPage(page, problems, `setup-signup-${signup}`);
      await context.close();
    });
  }
});
