// The studio adds and removes a code's tags, and downloads its print-ready PDF at a width in
// millimetres (issue #32).
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-tags-pdf.db', account: { viewer: false } });
let tries = 0;

async function v1<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${suite.url}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${suite.account.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${p}`).toBeLessThan(300);
  return (await res.json()) as T;
}

describe.skipIf(!HAVE_CHROMIUM)('tags and the PDF in the studio', () => {
  it('creates a code with tags, refuses a tag the API would refuse, and removes one on an edit', { timeout: 120_000 }, async () => {
    await v1('POST', '/qr', { title: 'Tagged before', url: 'https://example.com/a', tags: ['Terrace'] });
    const title = `Tagged ${++tries}`;
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    await page.getByLabel('Title', { exact: true }).fill(title);
    await page.getByRole('textbox', { name: 'Web address', exact: true }).fill('https://example.com/tags');
    const tagField = page.getByRole('combobox', { name: /^Tags/ });
    // The account's tags are offered.
    expect(await page.locator('#f-tags-known option').evaluateAll((os) => os.map((o) => (o as HTMLOptionElement).value))).toContain(
      'Terrace',
    );
    await tagField.fill('Spring 2027');
    await tagField.press('Enter');
    await tagField.fill('a|b');
    await page.getByRole('button', { name: 'Add tag' }).click();
    expect(await page.locator('#f-tags-error').textContent()).toBe('Must not contain |');
    await tagField.fill('  Terrace ');
    await page.getByRole('button', { name: 'Add tag' }).click();
    expect(await page.locator('.tag-editor__tags li').allTextContents()).toEqual(['Spring 2027×', 'Terrace×']);
    await tagField.scrollIntoViewIfNeeded();
    await viewportShots(page, 'studio-tags', page.locator('.tag-editor'));
    await checkPage(page, problems, 'studio-tags');
    await page.locator('.studio__actions .btn').click();
    await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
    const id = /codes\/([0-9a-f-]{36})\/edit/.exec(page.url())?.[1] as string;
    expect((await v1<{ item: { tags: string[] } }>('GET', `/qr/${id}`)).item.tags).toEqual(['Spring 2027', 'Terrace']);

    await page.getByRole('button', { name: 'Remove tag Terrace' }).click();
    expect(await page.locator('.studio__status').textContent()).toBe('Unsaved changes');
    await page.locator('.studio__actions .btn').click();
    await expect.poll(() => page.locator('.studio__status').textContent()).toMatch(/^All changes saved/);
    expect((await v1<{ item: { tags: string[] } }>('GET', `/qr/${id}`)).item.tags).toEqual(['Spring 2027']);
    await context.close();
  });

  it('downloads the PDF at the width asked for, and says when the width is out of range', { timeout: 120_000 }, async () => {
    const { item } = await v1<{ item: { id: string } }>('POST', '/qr', { title: 'Print run', url: 'https://example.com/print' });
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/${item.id}/edit`);
    const mm = page.getByLabel('PDF width (mm)');
    await mm.fill('80');
    const href = (await page.locator('#download-pdf').getAttribute('href')) as string;
    expect(href).toMatch(/image\.pdf\?size=80/);
    expect(await page.locator('#download-pdf').getAttribute('download')).toBe('print-run.pdf');
    const pdf = await page.evaluate(async (u) => {
      const res = await fetch(u);
      return { type: res.headers.get('content-type'), head: new TextDecoder().decode((await res.arrayBuffer()).slice(0, 5)) };
    }, href);
    expect(pdf).toEqual({ type: 'application/pdf', head: '%PDF-' });
    // 80 mm is 226.77 points: the page's width.
    const box = await page.evaluate(async (u) => new TextDecoder('latin1').decode(await (await fetch(u)).arrayBuffer()), href);
    expect(box).toMatch(/MediaBox \[0 0 226\.77/);
    await mm.fill('5');
    expect(await page.locator('#download-pdf-mm-error').textContent()).toMatch(/between 10 and 1000/);
    expect(await page.locator('#download-pdf').count()).toBe(0);
    await mm.fill('80');
    await viewportShots(page, 'studio-downloads-pdf', page.locator('.downloads'));
    await checkPage(page, problems, 'studio-downloads-pdf');
    await context.close();
  });
});
