// Static codes in the studio (issue #32): made from the same content forms and design panel,
// labelled "not tracked, cannot be changed after printing" before anything else, downloaded as
// PNG, SVG and PDF from the preview route, and never stored as tracked codes.
import fs from 'node:fs/promises';
import { describe, expect, it } from 'vitest';
import { decodePng, prepareZxing } from '../render/decode.ts';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'static-codes.db', account: { viewer: false } });

async function codeCount(): Promise<number> {
  const res = await fetch(`${suite.url}/v1/qr`, { headers: { authorization: `Bearer ${suite.account.key}` } });
  return ((await res.json()) as { items: unknown[] }).items.length;
}

describe.skipIf(!HAVE_CHROMIUM)('static codes', () => {
  it('makes a Wi-Fi code that holds the network itself, downloads it as PNG, SVG and PDF, and stores nothing', {
    timeout: 120_000,
  }, async () => {
    prepareZxing();
    const before = await codeCount();
    const { context, page, problems } = await suite.signIn(OWNER, { acceptDownloads: true });
    await page.getByRole('link', { name: 'Static code' }).click();
    await page.waitForURL(/\/app\/codes\/static$/);
    expect(await page.locator('#static-warning').textContent()).toContain('Not tracked, cannot be changed after printing.');
    // Nothing to download before the content is there.
    expect(await page.locator('#static-png').isDisabled()).toBe(true);
    await page.getByLabel('Network name (SSID)').fill('Lobby');
    await page.getByRole('textbox', { name: 'Password', exact: true }).fill('lobby-pass-1');
    const wifi = 'WIFI:T:WPA;S:Lobby;P:lobby-pass-1;;';
    expect(await page.locator('.destination code').textContent()).toBe(wifi);
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    expect(await page.locator('#scan-check').textContent()).toMatch(/^Scans: read at phone size, it holds what you entered\.$/);
    await page.getByLabel('File name').fill('Lobby Wi-Fi');
    await viewportShots(page, 'static-wifi');
    await checkPage(page, problems, 'static-wifi');

    const downloaded = async (button: string) => {
      const [file] = await Promise.all([page.waitForEvent('download'), page.locator(button).click()]);
      return { name: file.suggestedFilename(), body: await fs.readFile((await file.path()) as string) };
    };
    const png = await downloaded('#static-png');
    expect(png.name).toBe('lobby-wi-fi.png');
    expect(await decodePng(png.body)).toBe(wifi);
    const svg = await downloaded('#static-svg');
    expect(svg.body.toString()).toMatch(/^<svg/);
    await page.getByLabel('PDF width (mm)').fill('30');
    const pdf = await downloaded('#static-pdf');
    expect(pdf.name).toBe('lobby-wi-fi.pdf');
    expect(pdf.body.subarray(0, 5).toString()).toBe('%PDF-');
    expect(await codeCount()).toBe(before);
    await context.close();
  });

  it('makes a phone code, refusing what is not a number', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    // The studio's Wi-Fi tab points there: its code needs a phone that is online.
    await page.goto(`${suite.url}/app/codes/new`);
    await page.getByRole('tab', { name: 'Wi-Fi' }).click();
    expect(await page.locator('.studio__static-hint').textContent()).toContain('works offline');
    // The tab changed the draft: leaving asks first.
    page.once('dialog', (d) => void d.accept());
    await page.locator('.studio__static-hint').getByRole('link', { name: 'static code' }).click();
    await page.waitForURL(/\/app\/codes\/static$/);
    await page.getByRole('radio', { name: 'Phone' }).check();
    const number = page.getByLabel('Phone number');
    await number.fill('call me');
    await number.press('Tab');
    expect(await page.locator('#f-phone-error').textContent()).toMatch(/^Digits, spaces/);
    await number.fill('+44 20 7946 0958');
    expect(await page.locator('.destination code').textContent()).toBe('tel:+442079460958');
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    await viewportShots(page, 'static-phone');
    await checkPage(page, problems, 'static-phone');
    await context.close();
  });
});
