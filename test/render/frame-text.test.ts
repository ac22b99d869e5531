import { describe, expect, it } from 'vitest';
import { type QrDesign, resolveDesign } from '../../src/domain/design/design.ts';
import { designWarnings, renderPng, renderSvg } from '../../src/render/index.ts';
import { fitFrameText } from '../../src/render/frame-text.ts';
import { frameLayout } from '../../src/render/frames.ts';
import { frameFontFilesFor, undrawableCharacters } from '../../src/render/frame-text-coverage.ts';
import { shapeLine, type TextLine } from '../../src/render/text-paths.ts';
import { decodePng } from './decode.ts';
import { SHORT_URL } from './fixtures.ts';

/** The scripts of the 20 most-spoken languages, and the other scripts the frame must draw. */
const SAMPLES: [script: string, text: string, font: RegExp][] = [
  ['Latin', 'Escanéame', /inter-latin/],
  ['Vietnamese', 'Quét mã', /inter-(latin|vietnamese)/],
  ['Cyrillic', 'Сканируй', /inter-cyrillic/],
  ['Greek', 'Σάρωσε', /inter-greek/],
  ['Chinese (simplified)', '扫码点餐', /noto-sans-sc/],
  ['Chinese (traditional)', '掃碼點餐', /noto-sans-sc/],
  ['Japanese', 'スキャンしてね', /noto-sans-sc/],
  ['Korean', '스캔하세요', /noto-sans-kr/],
  ['Arabic', 'امسح الرمز', /noto-sans-arabic/],
  ['Urdu', 'اسکین کریں', /noto-sans-arabic/],
  ['Hebrew', 'סרוק אותי', /noto-sans-hebrew/],
  ['Devanagari', 'स्कैन करें', /noto-sans-devanagari/],
  ['Bengali', 'স্ক্যান করুন', /noto-sans-bengali/],
  ['Gurmukhi', 'ਸਕੈਨ ਕਰੋ', /noto-sans-gurmukhi/],
  ['Tamil', 'ஸ்கேன் செய்யவும்', /noto-sans-tamil/],
  ['Telugu', 'స్కాన్ చేయండి', /noto-sans-telugu/],
  ['Thai', 'สแกนที่นี่', /noto-sans-thai/],
  ['Emoji', '😀👍🍕', /noto-emoji/],
  ['Symbols', '★ ✓ ☎', /noto-sans-(sc|symbols)|inter/],
];

const graphemes = (t: string) => [...new Intl.Segmenter('und', { granularity: 'grapheme' }).segment(t)].length;
const idsOf = (line: TextLine) => line.glyphs.map((g) => g.id);

describe('frame text in every script', () => {
  it.each(SAMPLES)('draws %s as outlines of a plausible width, from its own font', (_, text, font) => {
    expect(undrawableCharacters(text)).toEqual([]);
    const line = shapeLine(text);
    expect(line.d).toMatch(/^M/);
    expect(line.glyphs.length).toBeGreaterThan(0);
    // Between a fifth of an em and one and a half ems per grapheme (spaces included).
    expect(line.width).toBeGreaterThan(graphemes(text) * 200);
    expect(line.width).toBeLessThan(graphemes(text) * 1500);
    expect(line.top).toBeGreaterThan(300);
    expect(line.glyphs.some((g) => font.test(g.file))).toBe(true);
  });

  it('spaces and digits after an emoji come from the text font: no emoji-wide gap, no keycap digits', () => {
    const line = shapeLine('Scan 👋 me 24');
    const space = idsOf(shapeLine(' '))[0];
    const emoji = line.glyphs.findIndex((g) => /noto-emoji/.test(g.file));
    expect(emoji).toBeGreaterThan(0);
    for (const g of line.glyphs.slice(emoji + 1)) expect(g.file).toMatch(/inter-latin/);
    expect(line.glyphs[emoji + 1]?.id).toBe(space);
    // The line is as wide as its parts: the space after the hand is Inter's.
    expect(line.width).toBeCloseTo(shapeLine('Scan ').width + shapeLine('👋').width + shapeLine(' me 24').width, 0);
  });

  it('draws right-to-left text from right to left', () => {
    const [alef, bet] = [idsOf(shapeLine('א'))[0], idsOf(shapeLine('ב'))[0]];
    const line = shapeLine('אב');
    const x = (id: number | undefined) => line.glyphs.find((g) => g.id === id)?.x ?? NaN;
    expect(x(alef)).toBeGreaterThan(x(bet));
  });

  it('puts Latin words and digits inside Hebrew text where bidi says: the first Hebrew word on the right', () => {
    const line = shapeLine('שלום abc 24');
    const hebrew = line.glyphs.filter((g) => /hebrew/.test(g.file)).map((g) => g.x);
    const latin = line.glyphs.filter((g) => /inter/.test(g.file) && g.id !== idsOf(shapeLine(' '))[0]);
    expect(Math.min(...hebrew)).toBeGreaterThan(Math.max(...latin.map((g) => g.x)));
    // "abc 24" reads left to right: digits after a Latin word join its direction (bidi rule W7).
    const abc = idsOf(shapeLine('abc'));
    const xs = abc.map((id) => line.glyphs.find((g) => g.id === id)?.x ?? NaN);
    expect(xs[0]).toBeLessThan(xs[1] as number);
    const four = line.glyphs.find((g) => g.id === idsOf(shapeLine('4'))[0])?.x ?? NaN;
    expect(four).toBeGreaterThan(xs[2] as number);
  });

  it('joins Arabic letters: the joined forms are other glyphs than the isolated letter', () => {
    // Noto Sans Arabic draws the dot as a mark of its own: the letter bodies are what join.
    const isolated = idsOf(shapeLine('ب'));
    const bodies = idsOf(shapeLine('ببب')).filter((id) => !isolated.includes(id));
    expect(bodies).toHaveLength(3);
    expect(new Set(bodies).size).toBe(3); // initial, medial and final forms
  });

  it('forms Devanagari conjuncts and places Thai marks over their base', () => {
    expect(shapeLine('क्ष').glyphs.length).toBeLessThan([...'क्ष'].length);
    const base = shapeLine('ท').width;
    expect(shapeLine('ที่').width).toBeCloseTo(base, -1);
    expect(shapeLine('ที่').glyphs.length).toBe(3);
  });

  it('tells which font files a text needs before drawing it (what the browser fetches first)', () => {
    const text = 'Scan 扫码 · امسح 😀 ★';
    const files = frameFontFilesFor(text);
    expect(files.some((f) => /inter-latin-700/.test(f))).toBe(true);
    expect(files.some((f) => /noto-sans-sc-/.test(f))).toBe(true);
    expect(files.some((f) => /noto-sans-arabic-/.test(f))).toBe(true);
    for (const g of shapeLine(text).glyphs) expect(files).toContain(g.file);
  });

  it('finds characters no bundled font has', () => {
    expect(undrawableCharacters('Scan \u{13000} me \u{E000}\u{13000}')).toEqual(['\u{13000}', '\u{E000}']);
    expect(undrawableCharacters('a\u200db\ufe0f\u200f c\t')).toEqual([]);
  });
});

describe('long frame text', () => {
  const band = frameLayout('bottom-banner', 1000).text!;

  it('keeps short text on one line at its natural size', () => {
    const fitted = fitFrameText('Scan me', band)!;
    expect(fitted.lines).toHaveLength(1);
    expect(fitted.share).toBe(1);
  });

  it('breaks long text in two lines at a space, both inside the band', () => {
    const fitted = fitFrameText('Scan this code to see our whole spring menu and order', band)!;
    expect(fitted.lines).toHaveLength(2);
    expect(fitted.share).toBeGreaterThanOrEqual(0.5);
    for (const { line, x } of fitted.lines) {
      expect(x).toBeGreaterThanOrEqual(band.x - 0.01);
      expect(x + (line.width * fitted.em) / 1000).toBeLessThanOrEqual(band.x + band.w + 0.01);
    }
  });

  it('breaks Chinese text, which has no spaces, between words', () => {
    expect(fitFrameText('欢迎光临我们的餐厅请扫描二维码查看完整菜单并在线点餐', band)!.lines).toHaveLength(2);
  });

  it('breaks where the longer of the two lines is shortest, as trying every word boundary would', () => {
    const texts = [
      'Scan this code to see our whole spring menu and order',
      '欢迎光临我们的餐厅请扫描二维码查看完整菜单并在线点餐',
      'امسح الرمز لمشاهدة قائمة الطعام الكاملة واطلب الآن',
      'स्कैन करें और पूरा मेनू देखें फिर ऑर्डर करें',
      'a bb ccc dddd eeeee ffffff ggggggg hhhhhhhh iiiiiiiii',
    ];
    const segmenter = new Intl.Segmenter('und', { granularity: 'word' });
    for (const text of texts) {
      const fitted = fitFrameText(text, band)!;
      expect(fitted.lines, text).toHaveLength(2);
      const bounds = [...segmenter.segment(text)].map((x) => x.index).filter((i) => i > 0);
      const afterSpace = bounds.filter((i) => /\s/u.test(text[i - 1] as string));
      const widest = (afterSpace.length ? afterSpace : bounds)
        .map((at) => [text.slice(0, at).trim(), text.slice(at).trim()])
        .filter(([a, b]) => a && b)
        .map(([a, b]) => Math.max(shapeLine(a as string).width, shapeLine(b as string).width));
      expect(Math.max(...fitted.lines.map((l) => l.line.width)), text).toBe(Math.min(...widest));
    }
  });

  it('warns in a plain sentence when text must be drawn below a readable size', () => {
    const design = (frameText: string): QrDesign => resolveDesign(undefined, { frameStyle: 'bottom-banner', frameText });
    expect(designWarnings(design('Scan this code to see our whole spring menu and order'))).toEqual([]);
    const warnings = designWarnings(design('W'.repeat(64)));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(
      /^The frame text is too long to read easily: it is drawn at \d+ % of its normal size\. Shorten it to about \d+ characters\.$/,
    );
  });
});

describe('framed images in every script', () => {
  it.each(SAMPLES.map(([script, text]) => [script, text] as const))(
    '%s: the PNG still decodes and the SVG has no text element',
    async (_, text) => {
      const design = resolveDesign(undefined, { frameStyle: 'bottom-banner', frameText: text });
      const svg = renderSvg(SHORT_URL, design, { size: 500 });
      expect(svg).not.toMatch(/<text|font-family/);
      expect(await decodePng(renderPng(SHORT_URL, design, { size: 500 }))).toBe(SHORT_URL);
    },
  );
});
