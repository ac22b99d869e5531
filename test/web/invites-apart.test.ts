// Two open invites can be told apart (issue #32): each says who it is for when the owner said,
// its role, and when it was made, to the minute; withdrawing one names it.
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'invites-apart.db', account: { viewer: false } });

describe.skipIf(!HAVE_CHROMIUM)('open invites', () => {
  it('shows whom each invite is for, and the API lists it', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/account/members`);
    for (const [email, role] of [
      ['ada@example.com', 'editor'],
      ['', 'viewer'],
    ]) {
      await page.locator('#invite-role').selectOption(role as string);
      await page.getByLabel(/^For/).fill(email as string);
      await page.getByRole('button', { name: 'Create invite link' }).click();
      await page.getByRole('button', { name: 'Done' }).click();
    }
    const items = page.locator('section[aria-labelledby="open-invites"] .list__item');
    await expect.poll(() => items.count()).toBe(2);
    const texts = await items.allTextContents();
    expect(texts[1]).toMatch(/^ada@example\.com: Editor invite, made /);
    expect(texts[0]).toMatch(/^Viewer invite, made /);
    const listed = (await (await suite.asOwner('GET', '/account/invites')).json()) as { invites: Array<{ email: string | null }> };
    expect(listed.invites.map((i) => i.email).sort()).toEqual(['ada@example.com', null].sort());
    await viewportShots(page, 'members-invites-apart', items.first());
    await checkPage(page, problems, 'members-invites-apart');
    await page.getByRole('button', { name: /^Withdraw the editor invite for ada@example\.com made / }).click();
    await page.getByRole('button', { name: 'Withdraw', exact: true }).click();
    expect(await page.locator('#invites-done').textContent()).toMatch(/^The editor invite for ada@example\.com made .* was withdrawn\.$/);
    await context.close();
  });
});
