// Account → Profile → Scan data, in a browser: the owner sees how long raw scans are kept, is told
// what a wrong number should be, saves a retention and clears it again; a viewer only reads it.
// Screenshots at 390 and 1280 px.
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, VIEWER, checkPage, signedInPage, useBrowserSuite } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'retention.db' });

describe.skipIf(!HAVE_CHROMIUM)('scan retention in the account area', () => {
  it('lets the owner set and clear it, and shows it to a viewer', { timeout: 180_000 }, async () => {
    const { context, page, problems } = await signedInPage(suite.browser, suite.url, OWNER);
    await page.goto(`${suite.url}/app/account/profile`);
    const card = page.locator('section', { has: page.getByRole('heading', { name: 'Scan data' }) });
    await expect.poll(() => card.textContent()).toMatch(/Raw scans are kept forever\..*always kept/);
    const field = page.getByLabel('Keep raw scans for (days)');
    await field.fill('0');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => page.locator('#f-scanRetentionDays-error').textContent()).toMatch(/from 1 to 3650/);
    await field.fill('90');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.textContent()).toMatch(/older than 90 days are deleted/);
    const account = (await (await suite.asOwner('GET', '/account')).json()) as { account: { scanRetentionDays: number | null } };
    expect(account.account.scanRetentionDays).toBe(90);
    await checkPage(page, problems, 'profile-retention');
    await field.fill('');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.textContent()).toMatch(/kept forever/);
    await field.fill('30');
    await card.getByRole('button', { name: 'Save' }).click();
    await expect.poll(() => card.textContent()).toMatch(/older than 30 days/);
    await context.close();

    const viewer = await signedInPage(suite.browser, suite.url, VIEWER);
    await viewer.page.goto(`${suite.url}/app/account/profile`);
    const seen = viewer.page.locator('section', { has: viewer.page.getByRole('heading', { name: 'Scan data' }) });
    await expect.poll(() => seen.textContent()).toMatch(/older than 30 days.*Owners can change this/);
    expect(await viewer.page.getByLabel('Keep raw scans for (days)').count()).toBe(0);
    await viewer.context.close();
  });
});
