// Account → Webhooks in a real browser, against a real receiver on 127.0.0.1: add an endpoint
// (its secret shown once), send a test event and see it delivered in the log, edit its events,
// see it disabled by a 410 and enable it again, resend, rotate the secret, delete it. Every
// state is checked with axe-core and photographed at 390 and 1280 px.
import { Webhook } from 'standardwebhooks';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite } from '../support/browser.ts';
import { type Receiver, startReceiver } from '../support/webhook-receiver.ts';

const suite = useBrowserSuite({
  db: 'webhooks.db',
  env: { WEBHOOK_ALLOW_PRIVATE: 'true', WEBHOOK_RETRY_SCHEDULE: '0.2,0.2' },
  account: { viewer: false },
});
let rx: Receiver;
beforeAll(async () => {
  rx = await startReceiver();
});
afterAll(async () => {
  await rx?.close();
});

describe.skipIf(!HAVE_CHROMIUM)('Account → Webhooks', () => {
  it('adds an endpoint, shows its secret once, delivers a test event, disables on 410, resends, rotates and deletes', {
    timeout: 240_000,
  }, async () => {
    // A loaded machine may make the project retry this on the same server: start from nothing.
    const left = (await (await suite.asOwner('GET', '/webhooks')).json()) as { webhooks: { id: string }[] };
    for (const w of left.webhooks) await suite.asOwner('DELETE', `/webhooks/${w.id}`);
    rx.received.length = 0;
    rx.answer = () => ({ status: 200, body: 'ok' });
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/webhooks`);
    await page.getByText('No endpoints yet.').waitFor();
    await checkPage(page, problems, 'webhooks-empty');

    // A bad URL is named beside the field; then the endpoint is added and its secret shown once.
    await page.getByLabel('URL').fill('ftp://example.com/x');
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    await page.getByText(/must be an https URL \(got ftp\)/i).waitFor();
    problems.length = 0; // the browser logs the expected 400
    await page.getByLabel('URL').fill(rx.url);
    await page.getByLabel('Description').fill('CRM sync');
    await page.getByRole('checkbox', { name: /^item\.created/ }).check();
    await page.getByRole('button', { name: 'Add endpoint' }).click();
    const secretField = page.getByLabel('Signing secret');
    await secretField.waitFor();
    const secret = await secretField.inputValue();
    expect(secret).toMatch(/^whsec_/);
    await checkPage(page, problems, 'webhooks-secret');
    await page.getByRole('button', { name: 'Done' }).click();
    await expect.poll(() => secretField.count(), { timeout: 30_000 }).toBe(0);

    const card = page.locator('article.webhook').filter({ hasText: rx.url });
    await card.getByText('Enabled', { exact: true }).waitFor();
    await card.getByRole('button', { name: 'Send test event' }).click();
    await card.getByText('Test event queued').waitFor();
    const [got] = await rx.waitFor(1);
    expect(new Webhook(secret).verify(got!.body, got!.headers as Record<string, string>)).toMatchObject({ type: 'webhook.test' });
    await card.getByRole('button', { name: 'Refresh' }).click();
    await card.locator('.delivery').getByText('Delivered').first().waitFor();
    await card.getByText('HTTP 200').first().waitFor();
    await checkPage(page, problems, 'webhooks-delivered');

    // Edit: only item events now.
    await card.getByRole('button', { name: `Edit ${rx.url}` }).click();
    await card.getByRole('checkbox', { name: /^scan\.created/ }).uncheck();
    await card.getByRole('button', { name: 'Save endpoint' }).click();
    await expect.poll(() => card.locator('.webhook-events-line code').allTextContents(), { timeout: 30_000 }).toEqual(['item.created']);

    // The receiver says 410: the endpoint is disabled, and the page says why after a reload.
    rx.answer = () => ({ status: 410, body: 'gone' });
    await card.getByRole('button', { name: 'Send test event' }).click();
    await rx.waitFor(2);
    await expect
      .poll(
        async () => {
          await page.reload();
          return page.getByText('Disabled: the receiver answered 410 Gone.').count();
        },
        { timeout: 30_000, interval: 500 },
      )
      .toBe(1);
    await page.locator('article.webhook summary', { hasText: 'Delivery log' }).click();
    await page.getByText('HTTP 410').first().waitFor();
    await checkPage(page, problems, 'webhooks-disabled');
    rx.answer = () => ({ status: 200, body: 'ok' });
    await page.getByRole('button', { name: 'Enable' }).click();
    await page.locator('article.webhook').getByText('Enabled', { exact: true }).waitFor();

    // Resend the 410'd test event: delivered this time, with the same webhook-id.
    const again = page.locator('article.webhook');
    const resend = again.getByRole('button', { name: /^Resend webhook\.test/ }).first();
    await resend.click();
    const third = (await rx.waitFor(3))[2];
    expect(third!.headers['webhook-id']).toBe(rx.received[1]!.headers['webhook-id']);

    // Rotate: a new secret, shown once; the old one still signs for a day.
    await again.getByRole('button', { name: `Rotate secret of ${rx.url}` }).click();
    await again.getByRole('button', { name: 'Rotate', exact: true }).click();
    const rotated = await page.getByLabel('Signing secret').inputValue();
    expect(rotated).not.toBe(secret);
    await page.getByText(/The old secret also signs for 24 hours/).waitFor();
    await checkPage(page, problems, 'webhooks-rotated');
    await page.getByRole('button', { name: 'Done' }).click();

    await again.getByRole('button', { name: `Delete ${rx.url}` }).click();
    await again.getByRole('button', { name: 'Delete endpoint' }).click();
    await page.getByText('No endpoints yet.').waitFor();
    expect(problems).toEqual([]);
    await context.close();
  });
});
