// On a real domain, in a browser: the setup page asks for the public address (prefilled from
// the page's own, warned about while it is loopback), the app's banner says phones cannot open
// the codes, and Account → Domains adds a domain, shows its TXT record, verifies it against a
// DNS server the test runs on loopback, and sets it as the default. Screenshots at 390 and
// 1280 px go to /tmp/shots-domains/.
import fs from 'node:fs';
import path from 'node:path';
import type { Page } from 'playwright-core';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, axeViolations, newContext, useBrowserSuite } from '../support/browser.ts';
import { type DnsStub, startDnsStub } from '../support/dns-stub.ts';
import { type RunningServer, startServer } from '../support/processes.ts';
import { tempDir } from '../support/test-app.ts';

const SHOTS = '/tmp/shots-domains';
const suite = useBrowserSuite({});
let server: RunningServer | undefined;
let dns: DnsStub;

beforeAll(async () => {
  dns = await startDnsStub();
});
afterAll(async () => {
  await server?.stop();
  await dns.close();
});

async function shots(page: Page, name: string): Promise<void> {
  fs.mkdirSync(SHOTS, { recursive: true });
  for (const [width, height] of [
    [390, 844],
    [1280, 800],
  ] as const) {
    await page.setViewportSize({ width, height });
    await page.screenshot({ path: path.join(SHOTS, `${name}-${width}.png`), fullPage: true });
    // Nothing may be wider than the window (a long hostname or TXT value on a phone).
    expect(await page.evaluate(() => document.documentElement.scrollWidth), `${name} at ${width} px`).toBeLessThanOrEqual(width);
  }
  await page.setViewportSize({ width: 390, height: 844 });
}

describe.skipIf(!HAVE_CHROMIUM)('on a real domain', () => {
  it('asks for the public address at setup, warns while it is loopback, and manages domains', { timeout: 240_000 }, async () => {
    // No PUBLIC_BASE_URL: the address is asked for (the default is http://localhost:PORT).
    server = await startServer({
      DATABASE_URL: `sqlite:${path.join(tempDir(), 'domains.db')}`,
      PUBLIC_BASE_URL: '',
      DNS_RESOLVERS: dns.address,
    });
    for (let i = 0; i < 200 && !/\/app\/setup\//.test(server.output()); i++) await new Promise((r) => setTimeout(r, 50));
    const link = /https?:\/\/\S+\/app\/setup\/\S+/.exec(server.output())?.[0];
    expect(link).toBeDefined();
    const { context, page, problems } = await newContext(suite.browser);

    await page.goto(link as string);
    const address = page.getByLabel('Public address');
    await address.waitFor();
    const origin = new URL(link as string).origin;
    expect(await address.inputValue()).toBe(origin);
    await expect.poll(() => page.locator('#f-publicBaseUrl-warning').textContent()).toMatch(/only this machine can reach/);
    await address.fill('https://qr.example.com/menu');
    await expect.poll(() => page.locator('#f-publicBaseUrl-error').textContent()).toMatch(/without a path/);
    await address.fill(origin);
    await page.getByLabel('Account name').fill('Acme');
    await page.getByLabel('Email').fill('owner@example.com');
    await page.getByLabel('Password').fill('owner password 1');
    expect(await axeViolations(page)).toEqual([]);
    await shots(page, 'setup');
    await page.getByRole('button', { name: 'Create account' }).click();
    await page.waitForURL(/\/app\/codes$/);

    // Loopback: the banner on every page, with the way to fix it.
    const banner = page.locator('#address-banner');
    await expect.poll(() => banner.textContent()).toMatch(/Phones cannot open these codes yet\..*only this machine can reach/);
    await page.getByRole('link', { name: 'Set the public address' }).click();
    await page.waitForURL(/\/app\/account\/domains$/);
    await page.getByRole('heading', { name: 'Public address of this instance' }).waitFor();

    // Add a domain: its TXT record is shown; verified once the DNS server has it.
    await page.getByLabel('Hostname').fill('QR.Acme.Example');
    await page.getByRole('button', { name: 'Add domain' }).click();
    const card = page.locator('article.domain').filter({ hasText: 'qr.acme.example' });
    await card.getByText('Waiting for its DNS record').waitFor();
    expect(await card.getByLabel('Name').inputValue()).toBe('_qrtrack.qr.acme.example');
    const value = await card.getByLabel('Value').inputValue();
    expect(value).toMatch(/^qrtrack-verify=/);
    await card.getByRole('button', { name: 'Verify now' }).click();
    await card.getByText(/Last check: no TXT record found at _qrtrack\.qr\.acme\.example/).waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shots(page, 'domains-pending');

    dns.txt.set('_qrtrack.qr.acme.example', [value]);
    await card.getByRole('button', { name: 'Verify now' }).click();
    await card.getByText('Verified').waitFor();
    await card.getByRole('button', { name: 'Use for new codes' }).click();
    await card.getByText('Default', { exact: true }).waitFor();
    await card.getByLabel('Fallback URL').fill('https://acme.example/missing');
    await card.getByLabel('Root redirect').fill('https://acme.example/');
    await card.getByRole('button', { name: 'Save settings' }).click();
    await card.getByText('Saved.').waitFor();
    expect(await axeViolations(page)).toEqual([]);
    await shots(page, 'domains-active');

    // A new code goes on the default domain.
    const made = await page.evaluate(async () => {
      const session = (await (await fetch('/v1/session')).json()) as { csrfToken: string };
      const res = await fetch('/v1/qr', {
        method: 'POST',
        headers: { 'content-type': 'application/json', 'x-csrf-token': session.csrfToken },
        body: JSON.stringify({ title: 'Poster', url: 'https://example.com/' }),
      });
      return (await res.json()) as { item: { shortUrl: string; domain: string } };
    });
    expect(made.item.domain).toBe('qr.acme.example');

    // The owner sets a public address: the banner goes; the old one is listed as still answering.
    await page.getByLabel('New public address').fill('http://qr.example.com');
    await page.getByRole('button', { name: 'Change the address' }).click();
    await page.getByText('New codes now point to http://qr.example.com.').waitFor();
    await expect.poll(() => banner.count()).toBe(0);
    await page.getByText(/Still answering for printed codes: http:\/\/localhost:\d+/).waitFor();
    await shots(page, 'domains-address-set');

    expect(problems).toEqual([]);
    await context.close();
  });
});
