// The public heading in the studio (issue #32): offered for the kinds that open a page of ours,
// saved through the API, shown on the landing page; the title stays private.
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-heading.db', account: { viewer: false } });
let tries = 0;

describe.skipIf(!HAVE_CHROMIUM)('the public heading in the studio', () => {
  it('creates a Wi-Fi code whose page shows the heading, not the title, and clears it on an edit', { timeout: 120_000 }, async () => {
    const title = `Router in room 4 ${++tries}`;
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    // A link redirects: no page, no heading.
    expect(await page.getByLabel(/^Heading on its page/).count()).toBe(0);
    await page.getByRole('tab', { name: 'Wi-Fi' }).click();
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByLabel('Network name (SSID)').fill('Lobby');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('lobby-pass-1');
    const heading = page.getByLabel(/^Heading on its page/);
    expect(await page.locator('#f-heading-hint').textContent()).toContain('empty: “Wi-Fi network”');
    await heading.fill('Guest Wi-Fi');
    await heading.scrollIntoViewIfNeeded();
    await viewportShots(page, 'studio-heading', heading);
    await checkPage(page, problems, 'studio-heading');
    await page.getByRole('button', { name: 'Create code' }).first().click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    const short = (await page.locator('#short-url').textContent()) as string;
    const landing = await (await fetch(short)).text();
    expect(landing).toContain('>Guest Wi-Fi</h1>');
    expect(landing).not.toContain(title);

    await page.getByLabel(/^Heading on its page/).fill('');
    await page.locator('.studio__actions .btn').click();
    await expect.poll(() => page.locator('.studio__status').textContent()).toMatch(/^All changes saved/);
    expect(await (await fetch(short)).text()).toContain('>Wi-Fi network</h1>');
    await context.close();
  });
});
