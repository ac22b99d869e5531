// The design pickers show what each choice draws: dot, corner and frame styles are radio groups
// of thumbnails drawn by the preview's renderer from the current design (its colours too), named
// in plain words, operable with the keyboard; the logo size reads Small, Medium, Large, with
// the exact value still settable.
import type { Page } from 'playwright-core';
import { describe, expect, it } from 'vitest';
import { HAVE_CHROMIUM, OWNER, checkPage, useBrowserSuite, viewportShots } from '../support/browser.ts';

const suite = useBrowserSuite({ db: 'studio-pickers.db', account: { viewer: false } });

/** The thumbnails of a picker, as data: URLs in the order shown. */
function thumbnails(page: Page, field: string): Promise<string[]> {
  return page.locator(`#d-${field} .style-picker__thumb img`).evaluateAll((imgs) => imgs.map((i) => (i as HTMLImageElement).src));
}

function checkedValue(page: Page, field: string): Promise<string> {
  return page.locator(`input[name="${field}"]:checked`).inputValue();
}

const PICKERS = [
  ['dotsStyle', 'Dot style', ['Square', 'Round dots', 'Rounded', 'Very rounded', 'Leaf', 'Soft leaf']],
  ['cornerSquare', 'Corner square style', ['Square', 'Round', 'Rounded', 'Leaf', 'Soft leaf']],
  ['cornerDot', 'Corner dot style', ['Square', 'Round', 'Rounded', 'Leaf', 'Soft leaf']],
  ['frameStyle', 'Frame style', ['No frame', 'Banner below', 'Phone', 'Label on top']],
] as const;

describe.skipIf(!HAVE_CHROMIUM)('the design pickers', () => {
  it('show a distinct thumbnail per style, named in plain words, the chosen one marked, in the design’s colours', {
    timeout: 120_000,
  }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    for (const [, summary] of [
      ['corner-squares', 'Corner squares'],
      ['corner-dots', 'Corner dots'],
      ['frame', 'Frame'],
    ]) {
      await page.locator('summary', { hasText: new RegExp(`^${summary}$`) }).click();
    }
    for (const [field, label, words] of PICKERS) {
      const group = page.getByRole('group', { name: label, exact: true });
      expect(await group.getByRole('radio').count(), label).toBe(words.length);
      for (const word of words) await group.getByRole('radio', { name: word, exact: true }).waitFor({ state: 'attached' });
      await expect.poll(() => thumbnails(page, field).then((t) => t.length)).toBe(words.length);
      const thumbs = await thumbnails(page, field);
      expect(new Set(thumbs).size, `${label}: every thumbnail differs`).toBe(words.length);
      for (const t of thumbs) expect(t).toMatch(/^data:image\/svg\+xml/);
      // No internal name anywhere on the picker.
      expect(await group.textContent()).not.toMatch(/extra-rounded|classy|bottom-banner/);
    }
    expect(await checkedValue(page, 'dotsStyle')).toBe('square');
    await checkPage(page, problems, 'studio-pickers');

    // Drawn in the design's colours: a new code colour redraws them.
    await page.locator('#group-colours summary').click();
    await page.getByLabel('Code colour', { exact: true }).fill('#7c2d12');
    await expect.poll(async () => (await thumbnails(page, 'dotsStyle')).every((t) => t.includes('7c2d12'))).toBe(true);
    // The frames' whole-code thumbnails follow too, drawn once the change has been painted.
    await expect.poll(async () => (await thumbnails(page, 'frameStyle')).every((t) => t.includes('7c2d12'))).toBe(true);
    // A dot style changes the frames' thumbnails, not the corners' (their crop holds no dot).
    const corners = await thumbnails(page, 'cornerSquare');
    const frames = await thumbnails(page, 'frameStyle');
    await page.locator('#d-dotsStyle').getByRole('radio', { name: 'Round dots', exact: true }).check();
    await expect.poll(async () => (await thumbnails(page, 'frameStyle')).join()).not.toBe(frames.join());
    expect(await thumbnails(page, 'cornerSquare')).toEqual(corners);
    await page.locator('#d-dotsStyle').scrollIntoViewIfNeeded();
    await viewportShots(page, 'studio-pickers-dots', page.locator('#d-dotsStyle'));
    await page.locator('#d-frameStyle').scrollIntoViewIfNeeded();
    await viewportShots(page, 'studio-pickers-frames', page.locator('#d-frameStyle'));
    await context.close();
  });

  it('are operated with the keyboard: arrows move the choice, and the preview follows', { timeout: 120_000 }, async () => {
    const { context, page } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    const square = page.locator('#d-dotsStyle').getByRole('radio', { name: 'Square', exact: true });
    await square.focus();
    const before = await page.locator('.preview__img').getAttribute('src');
    await page.keyboard.press('ArrowRight');
    expect(await checkedValue(page, 'dotsStyle')).toBe('dots');
    expect(await page.evaluate(() => (document.activeElement as HTMLInputElement).value)).toBe('dots');
    await expect.poll(() => page.locator('.preview__img').getAttribute('src')).not.toBe(before);
    // The focus shows on the option.
    const outline = await page
      .locator('#d-dotsStyle label', { has: page.locator('input:checked') })
      .evaluate((el) => getComputedStyle(el).outlineStyle);
    expect(outline).toBe('solid');
    await page.keyboard.press('ArrowRight');
    await page.keyboard.press('ArrowRight');
    expect(await checkedValue(page, 'dotsStyle')).toBe('extra-rounded');
    await context.close();
  });

  it('say the logo size in words, Small, Medium or Large, with the exact value beside', { timeout: 120_000 }, async () => {
    const { context, page, problems } = await suite.signIn(OWNER);
    await page.goto(`${suite.url}/app/codes/new`);
    await page.locator('.preview__img').waitFor();
    await page.locator('#group-logo summary').click();
    const exact = page.getByLabel('Exact logo size', { exact: true });
    // Without a logo, the size is not asked.
    expect(await page.getByRole('radio', { name: 'Medium' }).isDisabled()).toBe(true);
    await page.getByLabel('Preset icon').selectOption('wifi');
    expect(await page.getByRole('radio', { name: 'Large' }).isChecked()).toBe(true);
    await page.getByRole('radio', { name: 'Small' }).check();
    expect(await exact.inputValue()).toBe('0.2');
    await exact.fill('0.35');
    expect(await page.locator('input[name="logoSizeWord"]:checked').count()).toBe(0);
    await page.getByRole('radio', { name: 'Medium' }).check();
    expect(await exact.inputValue()).toBe('0.3');
    expect(await page.locator('#d-logoSize-hint').textContent()).not.toMatch(/error-correction budget/);
    await page.locator('#group-logo').scrollIntoViewIfNeeded();
    await checkPage(page, problems, 'studio-logo-size');
    await viewportShots(page, 'studio-logo-size-words', page.locator('.logo-size'));
    await context.close();
  });
});
