// The preview stays in view while designing: on a phone a thumbnail in the save bar follows every
// change once the preview has scrolled away, and opens large; on a desktop the side column is
// never taller than the window, however many warnings the design has, and a save does not
// repeat the design's warnings as a banner.
import path from 'node:path';
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, SHOTS_DIR, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

// A public address phones can reach, as in production: no banner above the page, no caveat in the scan check.
const suite = useBrowserSuite({
  db: 'studio-preview-in-view.db',
  account: { viewer: false },
  env: { PUBLIC_BASE_URL: 'http://qr.example.com' },
});

/** A design with five warnings: light gradient colours and eyes, round dots. */
const PALE = {
  color1: '#9a9a9a',
  isGradient: true,
  color2: '#b0b0b0',
  customEyeColors: true,
  eyeColor: '#c0c0c0',
  dotsStyle: 'dots',
};

async function createCode(body: object): Promise<{ id: string; warnings: string[] }> {
  const res = await fetch(`${suite.url}/v1/qr`, {
    method: 'POST',
    headers: { authorization: `Bearer ${suite.account.key}`, 'content-type': 'application/json' },
    body: JSON.stringify(body),
  });
  expect(res.status, await res.clone().text()).toBe(201);
  const out = (await res.json()) as { item: { id: string }; warnings: string[] };
  return { id: out.item.id, warnings: out.warnings };
}

function inViewport(page: Page, selector: string): Promise<boolean> {
  return page.locator(selector).evaluate((el) => {
    const r = el.getBoundingClientRect();
    return r.width > 0 && r.top >= 0 && r.bottom <= innerHeight && r.left >= 0 && r.right <= innerWidth;
  });
}

describe.skipIf(!HAVE_CHROMIUM)('the preview in view', () => {
  it('on a phone, a thumbnail in the save bar follows each change while the preview is scrolled away, and opens large', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    // The preview is on screen at the top: no thumbnail.
    expect(await page.locator('.mini-preview__toggle').count()).toBe(0);

    await page.locator('#group-colours summary').scrollIntoViewIfNeeded();
    await page.locator('#group-colours summary').click();
    const toggle = page.locator('.mini-preview__toggle');
    await toggle.waitFor();
    expect(await inViewport(page, '.mini-preview__toggle')).toBe(true);
    await page.getByLabel('Code colour', { exact: true }).fill('#1a5e20');
    // The thumbnail shows the newest drawing, the one the preview shows.
    await expect.poll(async () => (await page.locator('.preview__img').getAttribute('src'))?.includes('1a5e20')).toBe(true);
    await expect
      .poll(async () => (await toggle.locator('img').getAttribute('src')) === (await page.locator('.preview__img').getAttribute('src')))
      .toBe(true);
    await expect.poll(() => toggle.getAttribute('data-scan'), { timeout: 30_000 }).toBe('ok');
    expect(await toggle.getAttribute('aria-label')).toBe('Preview, scans: show it larger');
    await viewportShots(page, 'studio-mini-preview');

    await toggle.click();
    expect(await toggle.getAttribute('aria-expanded')).toBe('true');
    const large = page.locator('#mini-preview-large img');
    await large.waitFor();
    expect(await inViewport(page, '#mini-preview-large img')).toBe(true);
    const box = await large.boundingBox();
    expect(box && box.width >= 200).toBe(true);
    await checkPage(page, problems, 'studio-mini-preview-open');
    await page.setViewportSize({ width: 390, height: 844 });
    await page.locator('#group-colours summary').scrollIntoViewIfNeeded();
    await viewportShots(page, 'studio-mini-preview-open-bar');
    await toggle.focus();
    await page.keyboard.press('Escape');
    expect(await page.locator('#mini-preview-large').count()).toBe(0);
    expect(await toggle.getAttribute('aria-expanded')).toBe('false');

    // Back at the top, the preview itself is in view again and the thumbnail goes.
    await page.evaluate(() => scrollTo(0, 0));
    await expect.poll(() => page.locator('.mini-preview__toggle').count()).toBe(0);
    await context.close();
  });

  it('on a desktop, the side column fits the window with five warnings, which fold away; a save names them, not repeats them', {
    timeout: 120_000,
  }, async () => {
    const { id, warnings } = await createCode({ title: 'Pale poster', url: 'https://example.com/pale', ...PALE });
    expect(warnings.length).toBeGreaterThanOrEqual(4);
    const { context, page, problems } = await suite.signIn(OWNER);
    for (const height of [800, 620]) {
      await page.setViewportSize({ width: 1280, height });
      await page.goto(`${suite.url}/app/codes/${id}/edit`);
      await page.locator('#design-warnings li').first().waitFor();
      expect(await page.locator('#design-warnings li').count()).toBe(warnings.length);
      // At the top of the page the column starts under the header; the preview and the verdict are in the window.
      const side = await page.locator('.studio__side').boundingBox();
      expect(side && side.height <= height, `side column at ${JSON.stringify(side)} in ${height} px`).toBe(true);
      expect(await inViewport(page, '.preview__img')).toBe(true);
      await expect.poll(() => page.locator('#scan-check').getAttribute('data-state'), { timeout: 30_000 }).not.toBe('checking');
      await page.screenshot({ path: path.join(SHOTS_DIR, `studio-side-column-top-1280x${height}.png`) });
      expect(await inViewport(page, '#scan-check')).toBe(true);
      // Scrolled down the form, the whole column is in view, the warnings too (inside it, they scroll).
      await page.locator('#group-output').scrollIntoViewIfNeeded();
      const after = await page.locator('.studio__side').boundingBox();
      expect(after && after.y >= 0 && after.y + after.height <= height, `side column at ${JSON.stringify(after)}`).toBe(true);
      expect(await inViewport(page, '.preview__img')).toBe(true);
      expect(await page.locator('.mini-preview__toggle').count()).toBe(0);
    }
    // The warnings fold away.
    await page.locator('#design-warnings summary').click();
    expect(await page.locator('#design-warnings').getAttribute('open')).toBeNull();
    expect(await page.locator('#design-warnings summary').textContent()).toBe(
      `Phones may fail to scan this design (${warnings.length} warnings)`,
    );
    await page.locator('#design-warnings summary').click();

    // A save: the result names the warnings at the preview instead of repeating them.
    await page.getByLabel('Title', { exact: true }).fill('Pale poster, spring');
    await page.locator('.studio__actions .btn').click();
    const result = page.locator('#save-result');
    await result.waitFor();
    const said = (await result.textContent()) ?? '';
    expect(said).toContain(`Saved, with the ${warnings.length} warnings shown at the preview`);
    for (const w of warnings) expect(said).not.toContain(w);
    await page.setViewportSize({ width: 1280, height: 800 });
    await viewportShots(page, 'studio-saved-with-warnings');
    await checkPage(page, problems, 'studio-side-column-warnings');
    await context.close();
  });
});
