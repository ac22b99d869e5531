// What the API does, done from the app (issue #32): pause, resume and delete on a code's edit
// page and its dashboard; the dashboard shows the code's image and destination; a viewer reaches
// a code's design and downloads by clicking.
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, VIEWER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'code-parity.db' });
let tries = 0;

async function v1<T>(method: string, p: string, body?: unknown): Promise<{ status: number; body: T }> {
  const res = await fetch(`${suite.url}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${suite.account.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  const text = await res.text();
  return { status: res.status, body: (text === '' ? null : JSON.parse(text)) as T };
}

async function newCode(title: string): Promise<{ id: string; code: string }> {
  const { status, body } = await v1<{ item: { id: string; code: string } }>('POST', '/qr', { title, url: 'https://example.com/spring' });
  expect(status).toBe(201);
  return body.item;
}

const activeOf = async (id: string) => (await v1<{ item: { active: boolean } }>('GET', `/qr/${id}`)).body.item.active;

describe.skipIf(!HAVE_CHROMIUM)('the API’s actions in the app', () => {
  it('pauses, resumes and deletes a code from its edit page, keeping edits in progress', { timeout: 120_000 }, async () => {
    const item = await newCode(`Edit page ${++tries}`);
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/${item.id}/edit`);
    await page.locator('.preview__img').waitFor();
    const title = page.getByLabel('Title', { exact: true });
    await title.fill('Renamed but not saved');
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await page.getByRole('button', { name: 'Resume', exact: true }).waitFor();
    expect(await activeOf(item.id)).toBe(false);
    expect(await page.locator('.link-summary').textContent()).toContain('Paused');
    expect(await title.inputValue()).toBe('Renamed but not saved');
    await viewportShots(page, 'parity-edit-paused');
    await checkPage(page, problems, 'parity-edit-paused');
    await page.getByRole('button', { name: 'Resume', exact: true }).click();
    await page.getByRole('button', { name: 'Pause', exact: true }).waitFor();
    expect(await activeOf(item.id)).toBe(true);

    await page.getByRole('button', { name: 'Delete…' }).click();
    const dialog = page.getByRole('dialog');
    await dialog.waitFor();
    await dialog.getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(/\/app\/codes$/);
    expect((await v1('GET', `/qr/${item.id}`)).status).toBe(404);
    await context.close();
  });

  it('shows the image and destination on the dashboard, and pauses and deletes from there', { timeout: 120_000 }, async () => {
    const item = await newCode(`Dashboard ${++tries}`);
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/${item.id}`);
    const card = page.locator('.code-card');
    await card.waitFor();
    expect(await card.locator('#code-destination').textContent()).toBe('https://example.com/spring');
    await expect.poll(() => card.locator('img').evaluate((img: HTMLImageElement) => img.naturalWidth)).toBeGreaterThan(0);
    expect(await card.textContent()).toContain(`/r/${item.code}`);
    await page.getByRole('button', { name: 'Pause', exact: true }).click();
    await expect.poll(() => page.locator('.crumbs [data-status]').getAttribute('data-status')).toBe('paused');
    expect(await activeOf(item.id)).toBe(false);
    await viewportShots(page, 'parity-dashboard');
    await checkPage(page, problems, 'parity-dashboard');
    await page.getByRole('button', { name: 'Delete…' }).click();
    await page.getByRole('dialog').getByRole('button', { name: 'Delete for good' }).click();
    await page.waitForURL(/\/app\/codes$/);
    expect((await v1('GET', `/qr/${item.id}`)).status).toBe(404);
    await context.close();
  });

  it('gives a viewer a View & download link from the list and the dashboard, with no edit controls', { timeout: 120_000 }, async () => {
    const title = `For viewers ${++tries}`;
    const item = await newCode(title);
    const { context, page, problems } = await suite.signIn(VIEWER);
    const row = page.locator(`.code-row[data-id="${item.id}"]`);
    await row.waitFor();
    expect(await row.getByRole('button', { name: /^(Pause|Resume|Delete)/ }).count()).toBe(0);
    await viewportShots(page, 'parity-viewer-list');
    await checkPage(page, problems, 'parity-viewer-list');
    await row.getByRole('link', { name: `View & download ${title}` }).click();
    await page.waitForURL(new RegExp(`/app/codes/${item.id}/edit$`));
    await page.locator('#download-png').waitFor();
    expect(await page.getByRole('button', { name: 'Pause', exact: true }).count()).toBe(0);

    await page.goto(`${suite.url}/app/codes/${item.id}`);
    await page.locator('.code-card').waitFor();
    expect(await page.getByRole('button', { name: 'Delete…' }).count()).toBe(0);
    await page.getByRole('link', { name: 'View & download' }).click();
    await page.waitForURL(new RegExp(`/app/codes/${item.id}/edit$`));
    await page.locator('#download-svg').waitFor();
    await context.close();
  });
});
