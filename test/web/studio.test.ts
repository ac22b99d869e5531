// The studio through a real browser on a real server: a code of each kind created through the
// UI, every design group redrawing the preview, the browser's preview equal byte for byte to
// the server's image.svg over a seeded sample of designs, a downloaded PNG that decodes to the
// short link, a low-contrast design warned about and failing the scan check, saved designs,
// the unsaved-changes question, and a viewer without edit controls.
import fs from 'node:fs';
import path from 'node:path';
import type { BrowserContext, Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { CORNER_STYLES, DOT_STYLES, FRAME_STYLES, PRESET_LOGOS, type QrDesign } from '../../src/domain/design/design.ts';
import { decodePng } from '../render/decode.ts';
import { mulberry32 } from '../render/scan-matrix.ts';
import { tempDir } from '../support/test-app.ts';
import { HAVE_CHROMIUM, OWNER, VIEWER, checkPage, screenshots, useBrowserSuite } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio.db' });

interface Item {
  id: string;
  title: string;
  code: string;
  shortUrl: string;
  contentType: string;
  payload: string;
  design: QrDesign;
}

async function v1<T>(method: string, p: string, body?: unknown): Promise<T> {
  const res = await fetch(`${suite.url}/v1${p}`, {
    method,
    headers: { authorization: `Bearer ${suite.account.key}`, ...(body === undefined ? {} : { 'content-type': 'application/json' }) },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  expect(res.status, `${method} ${p}: ${await res.clone().text()}`).toBeLessThan(300);
  return (await res.json()) as T;
}

/** First-run setup of the owner, an API key, and a viewer who accepted an invite. */
function signedIn(who = OWNER): Promise<{ context: BrowserContext; page: Page; problems: string[] }> {
  return suite.signIn(who, { acceptDownloads: true });
}

/** The value of a style picker's chosen option. */
function checkedValue(page: Page, field: string): Promise<string> {
  return page.locator(`input[name="${field}"]:checked`).inputValue();
}

/** The SVG text the preview shows (its data: URL, decoded here). */
async function previewSvg(page: Page, problems: string[] = []): Promise<string> {
  // A preview that never appears says what the panel showed and what the page logged.
  await page
    .locator('.preview__img')
    .waitFor()
    .catch(async (err: unknown) => {
      const panel = await page
        .locator('.preview')
        .innerText({ timeout: 1_000 })
        .catch(() => '(no preview panel)');
      const body = await page
        .locator('body')
        .innerText({ timeout: 1_000 })
        .catch(() => '(no body)');
      throw new Error(
        `${String(err)}\nat ${page.url()}\npreview panel: ${panel}\npage: ${body.slice(0, 500)}\npage problems: ${problems.join(' | ') || 'none'}`,
      );
    });
  const src = (await page.locator('.preview__img').getAttribute('src')) ?? '';
  expect(src).toMatch(/^data:image\/svg\+xml;charset=utf-8,/);
  return decodeURIComponent(src.slice(src.indexOf(',') + 1));
}

async function previewChangesFrom(page: Page, before: string): Promise<string> {
  let now = before;
  await expect.poll(async () => (now = await previewSvg(page)) !== before, { timeout: 20_000 }).toBe(true);
  return now;
}

function sampleDesigns(n: number): Partial<QrDesign>[] {
  const rnd = mulberry32(13);
  const pick = <T>(xs: readonly T[]): T => xs[Math.floor(rnd() * xs.length)]!;
  const hex = () =>
    `#${Math.floor(rnd() * 0x60)
      .toString(16)
      .padStart(2, '0')}${Math.floor(rnd() * 0x60)
      .toString(16)
      .padStart(2, '0')}${Math.floor(rnd() * 0x60)
      .toString(16)
      .padStart(2, '0')}`;
  return Array.from({ length: n }, (_, i) => ({
    dotsStyle: pick(DOT_STYLES),
    cornerSquare: pick(CORNER_STYLES),
    cornerDot: pick(CORNER_STYLES),
    isGradient: rnd() < 0.5,
    gradientType: pick(['linear', 'radial'] as const),
    gradientRotation: Math.round(rnd() * 360),
    color1: hex(),
    color2: hex(),
    customEyeColors: rnd() < 0.5,
    eyeColor: hex(),
    presetLogo: pick(PRESET_LOGOS),
    logoSize: Math.round((0.1 + rnd() * 0.4) * 100) / 100,
    logoMargin: Math.round(rnd() * 30),
    hideDotsBehindLogo: rnd() < 0.7,
    frameStyle: i === 0 ? 'bottom-banner' : pick(FRAME_STYLES),
    // The first design's text is shaped in every way (Arabic joining and bidi, CJK, conjuncts, Hangul, emoji).
    frameText:
      i === 0
        ? 'امسح 24/7 · 扫码 · स्कैन · 스캔 ★ 😀'
        : pick(['Scan me', 'Menü & Karte', 'Привет мир', 'Ωμέγα 2026', 'Tiếng Việt', 'امسح الرمز', '扫码点餐', 'สแกนที่นี่']),
    errorCorrectionLevel: pick(['L', 'M', 'Q', 'H'] as const),
    resolution: 500 + Math.floor(rnd() * 2001),
    bgTransparent: rnd() < 0.2,
  }));
}

describe.skipIf(!HAVE_CHROMIUM)('the studio in a browser', () => {
  it('creates a code of each kind, with the API’s messages inline first', { timeout: 240_000 }, async () => {
    const { context, page, problems } = await signedIn();
    await page.getByRole('link', { name: 'New code' }).first().click();
    await page.waitForURL(/\/app\/codes\/new$/);
    await page.locator('.preview__img').waitFor();
    await checkPage(page, problems, 'studio-new');

    const kinds: Array<{
      tab: string;
      title: string;
      fill: Record<string, string>;
      bad?: [string, string, string];
      type: string;
      payload: string;
    }> = [
      {
        tab: 'URL',
        title: 'Menu',
        fill: { 'Web address': 'example.com/menu' },
        bad: ['Web address', 'javascript:alert(1)', 'http'],
        type: 'url',
        payload: 'https://example.com/menu',
      },
      {
        tab: 'Wi-Fi',
        title: 'Guest Wi-Fi',
        fill: { 'Network name (SSID)': 'Café;Guest', Password: 'p:ss' },
        type: 'wifi',
        payload: 'WIFI:T:WPA;S:Café\\;Guest;P:p\\:ss;;',
      },
      {
        tab: 'vCard',
        title: 'Ada',
        fill: { 'First name (optional)': 'Ada', 'Last name (optional)': 'Lovelace', 'Phone (optional)': '+44 20 7946 0000' },
        type: 'vcard',
        payload: 'BEGIN:VCARD',
      },
      {
        tab: 'WhatsApp',
        title: 'Chat',
        fill: { 'WhatsApp number': '+49 151 2345678', 'Prefilled message (optional)': 'Hi there' },
        bad: ['WhatsApp number', '12', 'Must have 6 to 15 digits'],
        type: 'whatsapp',
        payload: 'https://wa.me/491512345678?text=Hi%20there',
      },
      { tab: 'Text', title: 'Note', fill: { Text: 'Hello, world' }, type: 'text', payload: 'Hello, world' },
      {
        tab: 'Email',
        title: 'Mail us',
        fill: { To: 'hello@example.com', 'Subject (optional)': 'Hi' },
        bad: ['To', 'not an address', 'Must be an email address'],
        type: 'email',
        payload: 'mailto:hello@example.com?subject=Hi',
      },
    ];
    for (const k of kinds) {
      if (!page.url().endsWith('/codes/new')) {
        await page.goto(`${suite.url}/app/codes/new`);
      }
      await page.getByLabel('Title', { exact: true }).fill(k.title);
      await page.getByRole('tab', { name: k.tab, exact: true }).click();
      if (k.bad) {
        const [label, value, message] = k.bad;
        await page.getByRole('textbox', { name: label, exact: true }).fill(value);
        // A field's error shows once the field is left, not while it is typed in.
        await page.getByRole('textbox', { name: label, exact: true }).blur();
        await expect.poll(() => page.locator('#content-panel .error').first().textContent()).toContain(message);
      }
      for (const [label, value] of Object.entries(k.fill)) await page.getByRole('textbox', { name: label, exact: true }).fill(value);
      await expect.poll(() => page.locator('#content-panel .error').count()).toBe(0);
      await page.getByRole('button', { name: 'Create code' }).first().click();
      await page.waitForURL(/\/app\/codes\/[0-9a-f-]{36}\/edit$/);
      const id = /codes\/([0-9a-f-]{36})\/edit/.exec(page.url())![1]!;
      const { item } = await v1<{ item: Item }>('GET', `/qr/${id}`);
      expect(item.title).toBe(k.title);
      expect(item.contentType).toBe(k.type);
      expect(item.payload.startsWith(k.payload), item.payload).toBe(true);
      // The short link and the destination are shown plainly.
      expect(await page.locator('#short-url').textContent()).toBe(item.shortUrl);
      await page.goto(`${suite.url}/app/codes/new`);
    }
    expect(problems).toEqual([]);
    await context.close();
  });

  it('redraws the preview for a change in every design group', { timeout: 180_000 }, async () => {
    const { context, page, problems } = await signedIn();
    await page.goto(`${suite.url}/app/codes/new`);
    let svg = await previewSvg(page);
    const open = async (group: string) => {
      const d = page.locator(`#group-${group}`);
      if ((await d.getAttribute('open')) === null) await d.locator('summary').click();
    };
    const changes: Array<[string, () => Promise<void>]> = [
      ['dots', () => page.locator('#d-dotsStyle').getByRole('radio', { name: 'Round dots', exact: true }).check()],
      ['corner-squares', () => page.locator('#d-cornerSquare').getByRole('radio', { name: 'Rounded', exact: true }).check()],
      ['corner-dots', () => page.locator('#d-cornerDot').getByRole('radio', { name: 'Round', exact: true }).check()],
      ['colours', () => page.getByLabel('Gradient').check()],
      ['colours', () => page.getByLabel('Second gradient colour', { exact: true }).fill('#1d4ed8')],
      ['colours', () => page.getByLabel('Gradient rotation', { exact: true }).fill('90')],
      ['background', () => page.getByLabel('Background colour', { exact: true }).fill('#fffbe6')],
      ['background', () => page.getByLabel('Transparent background').check()],
      ['eyes', () => page.getByLabel('Own colour for the three corner eyes').check()],
      ['eyes', () => page.getByLabel('Eye colour', { exact: true }).fill('#b91c1c')],
      [
        'logo',
        () =>
          page
            .getByLabel('Preset icon')
            .selectOption('wifi')
            .then(() => undefined),
      ],
      ['logo', () => page.getByLabel('Exact logo size', { exact: true }).fill('0.2')],
      ['logo', () => page.getByLabel('Logo margin', { exact: true }).fill('12')],
      ['logo', () => page.getByLabel('Hide the dots behind the logo').uncheck()],
      [
        'logo',
        () =>
          page.getByLabel('Your own logo').setInputFiles({
            name: 'logo.svg',
            mimeType: 'image/svg+xml',
            buffer: Buffer.from(
              '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 10 10"><circle cx="5" cy="5" r="5" fill="#db2777"/></svg>',
            ),
          }),
      ],
      ['frame', () => page.getByRole('radio', { name: 'Banner below', exact: true }).check()],
      ['frame', () => page.getByLabel('Frame text', { exact: true }).fill('Scan für Menü')],
      ['frame', () => page.getByLabel('Frame colour', { exact: true }).fill('#14532d')],
      ['frame', () => page.getByLabel('Frame text colour', { exact: true }).fill('#fde68a')],
      [
        'output',
        () =>
          page
            .getByLabel('Error correction')
            .selectOption('H')
            .then(() => undefined),
      ],
      ['output', () => page.getByLabel('Resolution (image width)', { exact: true }).fill('1200')],
    ];
    for (const [group, change] of changes) {
      await open(group);
      await change();
      svg = await previewChangesFrom(page, svg);
    }
    // An option out of range is named under its control, as the API would word it; the preview waits.
    await page.getByLabel('Resolution (image width)', { exact: true }).fill('4000');
    await expect.poll(() => page.locator('#d-resolution-error').textContent()).toBe('Must be an integer between 500 and 2500');
    await page.getByLabel('Resolution (image width)', { exact: true }).fill('2500');
    await expect.poll(() => page.locator('#d-resolution-error').count()).toBe(0);
    await page.getByLabel('Frame colour', { exact: true }).fill('green');
    await expect.poll(() => page.locator('#d-frameColor-error').textContent()).toBe('Must be a hex color #rgb, #rrggbb or #rrggbbaa');
    await page.getByLabel('Frame colour', { exact: true }).fill('#14532d');
    await screenshots(page, 'studio-designed');
    expect(problems).toEqual([]);

    // Leaving with unsaved changes asks first; staying keeps the page.
    let asked = '';
    page.once('dialog', (d) => {
      asked = d.message();
      void d.dismiss();
    });
    await page.getByRole('link', { name: 'Codes', exact: true }).click();
    await expect.poll(() => asked).toContain('unsaved changes');
    expect(page.url()).toMatch(/\/app\/codes\/new$/);
    await context.close();
  });

  it('draws the preview byte for byte as the server’s image.svg over a seeded sample of designs', { timeout: 240_000 }, async () => {
    const { context, page, problems } = await signedIn();
    for (const [i, design] of sampleDesigns(8).entries()) {
      const { item } = await v1<{ item: Item }>('POST', '/qr', { title: `Sample ${i}`, url: `https://example.com/s/${i}`, design });
      await page.goto(`${suite.url}/app/codes/${item.id}/edit`);
      const browserSvg = await previewSvg(page, problems);
      const serverSvg = await (
        await fetch(`${suite.url}/v1/qr/${item.id}/image.svg`, { headers: { authorization: `Bearer ${suite.account.key}` } })
      ).text();
      expect(browserSvg.length, `design ${i}`).toBe(serverSvg.length);
      expect(browserSvg === serverSvg, `design ${i}: ${JSON.stringify(design)}`).toBe(true);
    }
    await context.close();
  });

  it('downloads a PNG named after the title that decodes to the short link', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await signedIn();
    const { item } = await v1<{ item: Item }>('POST', '/qr', {
      title: 'Spring Menü 2026',
      url: 'https://example.com/spring',
      design: { dotsStyle: 'rounded', frameStyle: 'badge' },
    });
    await page.goto(`${suite.url}/app/codes/${item.id}/edit`);
    await page.getByLabel('PNG width').selectOption('500');
    const [download] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()]);
    expect(download.suggestedFilename()).toBe('spring-menu-2026.png');
    const file = path.join(tempDir(), 'download.png');
    await download.saveAs(file);
    const png = fs.readFileSync(file);
    expect(png.readUInt32BE(16)).toBe(500);
    expect(await decodePng(png)).toBe(item.shortUrl);
    const [svgDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download SVG' }).click()]);
    expect(svgDownload.suggestedFilename()).toBe('spring-menu-2026.svg');
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    await checkPage(page, problems, 'studio-edit');
    // A title with no letter a file name can keep: named after the code, as the server names it.
    const { item: cjk } = await v1<{ item: Item }>('POST', '/qr', { title: '春のメニュー', url: 'https://example.com/haru' });
    await page.goto(`${suite.url}/app/codes/${cjk.id}/edit`);
    const [cjkDownload] = await Promise.all([page.waitForEvent('download'), page.getByRole('link', { name: 'Download PNG' }).click()]);
    expect(cjkDownload.suggestedFilename()).toBe(`qr-${cjk.code}.png`);
    const served = await fetch(`${suite.url}/v1/qr/${cjk.id}/image.png?download=1`, {
      headers: { authorization: `Bearer ${suite.account.key}` },
    });
    expect(served.headers.get('content-disposition')).toContain(`filename="qr-${cjk.code}.png"`);
    await context.close();
  });

  it('warns about a low-contrast design and its scan check fails', { timeout: 120_000 }, async () => {
    const { context, page } = await signedIn();
    await page.goto(`${suite.url}/app/codes/new`);
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('ok');
    await page.locator('#group-colours summary').click();
    await page.getByLabel('Code colour', { exact: true }).fill('#f2f2f2');
    await expect.poll(() => page.locator('#design-warnings').textContent()).toContain('contrast of 1.1:1');
    await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).toBe('bad');
    expect(await page.locator('#scan-check').textContent()).toContain('Does not scan');
    // The same sentence the API answers on create.
    const { warnings } = await v1<{ warnings: string[] }>('POST', '/qr', { title: 'Pale', url: 'https://example.com', color1: '#f2f2f2' });
    expect(await page.locator('#design-warnings li').allTextContents()).toEqual(warnings);
    await screenshots(page, 'studio-low-contrast');
    await context.close();
  });

  it('saves the current design, starts a new code from it, and exports it as JSON', { timeout: 120_000 }, async () => {
    const { context, page } = await signedIn();
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('#group-dots').locator('summary').waitFor();
    await page.locator('#d-dotsStyle').getByRole('radio', { name: 'Leaf', exact: true }).check();
    // Named afresh on each try: a retried test runs against the same server.
    const name = `Classy brand ${Date.now()}`;
    await page.getByLabel('Save the current design as').fill(name);
    await page.getByRole('button', { name: 'Save design' }).click();
    await expect
      .poll(
        async () =>
          (await v1<{ designs: Array<{ name: string; design: QrDesign }> }>('GET', '/designs')).designs.map((d) => [
            d.name,
            d.design.dotsStyle,
          ])[0],
      )
      .toEqual([name, 'classy']);
    const [exported] = await Promise.all([
      page.waitForEvent('download'),
      page.getByRole('button', { name: 'Export design (JSON)' }).click(),
    ]);
    const file = path.join(tempDir(), 'design.json');
    await exported.saveAs(file);
    expect(JSON.parse(fs.readFileSync(file, 'utf8')).design.dotsStyle).toBe('classy');

    await page.reload();
    await page.locator('.preview__img').waitFor();
    const before = await previewSvg(page);
    await page.getByLabel('Start from a design').selectOption({ label: name });
    await page.getByRole('button', { name: 'Use this design' }).click();
    await previewChangesFrom(page, before);
    expect(await checkedValue(page, 'dotsStyle')).toBe('classy');
    await page.getByLabel('Start from a design').selectOption({ label: 'Menu card (built in)' });
    await page.getByRole('button', { name: 'Use this design' }).click();
    await expect.poll(() => checkedValue(page, 'frameStyle')).toBe('bottom-banner');
    await page.getByLabel('Import design (JSON)').setInputFiles(file);
    await expect.poll(() => checkedValue(page, 'frameStyle')).toBe('none');
    expect(await checkedValue(page, 'dotsStyle')).toBe('classy');
    await context.close();
  });

  it('shows a viewer the code without edit controls', { timeout: 120_000 }, async () => {
    const { item } = await v1<{ item: Item }>('POST', '/qr', { title: 'Read only', url: 'https://example.com/ro' });
    const { context, page, problems } = await signedIn(VIEWER);
    await page.goto(`${suite.url}/app/codes/${item.id}/edit`);
    await page.locator('.preview__img').waitFor();
    expect(await page.locator('#short-url').textContent()).toBe(item.shortUrl);
    expect(await page.locator('.studio__edit').locator('input, textarea, select, button').count()).toBe(0);
    expect(await page.getByRole('button', { name: /Save|Create/ }).count()).toBe(0);
    expect(await page.getByRole('link', { name: 'Download PNG' }).count()).toBe(1);
    await page.goto(`${suite.url}/app/codes/new`);
    await expect.poll(() => page.locator('.notice').textContent()).toContain('not create them');
    expect(problems).toEqual([]);
    await context.close();
  });

  it('opens a code straight from its edit address every time, never left on "Loading…"', { timeout: 180_000 }, async () => {
    // The app loads the studio's chunk at start beside the session; when it arrived between the
    // page's first render and its effect, the page never asked for the code and showed the spinner
    // for good (one cold open in four or five here). Eight cold opens, each in a new context.
    const { item } = await v1<{ item: Item }>('POST', '/qr', { title: 'Cold open', url: 'https://example.com/cold' });
    for (let i = 0; i < 8; i++) {
      const { context, page } = await signedIn(VIEWER);
      await page.goto(`${suite.url}/app/codes/${item.id}/edit`);
      await page.locator('.preview__img').waitFor({ timeout: 15_000 });
      expect(await page.locator('#short-url').textContent()).toBe(item.shortUrl);
      await context.close();
    }
  });
});
