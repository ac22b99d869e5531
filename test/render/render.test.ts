import { describe, expect, it } from 'vitest';
import {
  DEFAULT_DESIGN,
  DOT_STYLES,
  ERROR_CORRECTION_LEVELS,
  FRAME_STYLES,
  LIMITS,
  type QrDesign,
} from '../../src/domain/design/design.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { createQrMatrix, QUIET_ZONE, renderPng, renderSvg } from '../../src/render/index.ts';
import { frameLayout } from '../../src/render/frames.ts';
import { logoBox } from '../../src/render/logo-layer.ts';
import { readPngSize } from './decode.ts';
import { SHORT_URL } from './fixtures.ts';

const design = (d: Partial<QrDesign> = {}): QrDesign => ({ ...DEFAULT_DESIGN, ...d });
const RECOVERY = { L: 0.07, M: 0.15, Q: 0.25, H: 0.3 };

function svgSize(svg: string): { width: number; height: number } {
  const m = /<svg [^>]*width="(\d+)" height="(\d+)" viewBox="0 0 (\d+) (\d+)"/.exec(svg);
  expect(m).not.toBeNull();
  expect(m![3]).toBe(m![1]);
  expect(m![4]).toBe(m![2]);
  return { width: Number(m![1]), height: Number(m![2]) };
}

/** The code group's placement: translate(x y) scale(module px). */
function codePlacement(svg: string): { x: number; y: number; scale: number } {
  const m = /<g transform="translate\(([\d.]+) ([\d.]+)\) scale\(([\d.]+)\)">/.exec(svg);
  expect(m).not.toBeNull();
  return { x: Number(m![1]), y: Number(m![2]), scale: Number(m![3]) };
}

describe('renderPng', () => {
  it.each(FRAME_STYLES)('is exactly the resolution wide with frame %s, at every allowed resolution', (frameStyle) => {
    for (const resolution of [LIMITS.resolution.min, 1000, 1337, LIMITS.resolution.max]) {
      const { width, height } = readPngSize(renderPng(SHORT_URL, design({ frameStyle, resolution })));
      expect(width).toBe(resolution);
      if (frameStyle === 'none') expect(height).toBe(resolution);
      else expect(height).toBeGreaterThan(resolution);
    }
  });

  it('uses opts.size instead of the resolution', () => {
    expect(readPngSize(renderPng(SHORT_URL, design({ resolution: 2500 }), { size: 640 })).width).toBe(640);
  });

  it('keeps a transparent background transparent', () => {
    const png = renderPng(SHORT_URL, design({ bgTransparent: true }), { size: 500 });
    expect(png[25]).toBe(6); // colour type RGBA
  });
});

describe('renderSvg', () => {
  it('is exactly the requested width, the frame inside it', () => {
    for (const frameStyle of FRAME_STYLES) {
      const svg = renderSvg(SHORT_URL, design({ frameStyle }), { size: 777 });
      const { width, height } = svgSize(svg);
      expect(width).toBe(777);
      expect(height).toBeGreaterThanOrEqual(777);
      const place = codePlacement(svg);
      const n = createQrMatrix(SHORT_URL, 'Q').size;
      expect(place.x + n * place.scale).toBeLessThanOrEqual(width);
    }
  });

  it('leaves a quiet zone of at least 4 modules inside the frame opening', () => {
    const n = createQrMatrix(SHORT_URL, 'Q').size;
    for (const frameStyle of FRAME_STYLES) {
      for (const size of [500, 1000, 2500]) {
        const { x, y, scale } = codePlacement(renderSvg(SHORT_URL, design({ frameStyle }), { size }));
        const opening = frameLayout(frameStyle, size).code;
        expect(x - opening.x).toBeGreaterThanOrEqual(QUIET_ZONE * scale - 0.5);
        expect(y - opening.y).toBeGreaterThanOrEqual(QUIET_ZONE * scale - 0.5);
        expect(opening.x + opening.w - (x + n * scale)).toBeGreaterThanOrEqual(QUIET_ZONE * scale - 0.5);
        expect(opening.y + opening.h - (y + n * scale)).toBeGreaterThanOrEqual(QUIET_ZONE * scale - 0.5);
      }
    }
  });

  it('draws the code as one path per colour layer', () => {
    const plain = renderSvg(SHORT_URL, design());
    expect(plain.match(/<path /g)).toHaveLength(1);
    for (const dotsStyle of DOT_STYLES) {
      const svg = renderSvg(SHORT_URL, design({ dotsStyle, isGradient: true, customEyeColors: true, eyeColor: '#ff0000' }));
      expect(svg.match(/<path /g)).toHaveLength(2);
      expect(svg).toMatch(/<path d="[^"]+" fill="url\(#qrg-\w+\)"\/><path d="[^"]+" fill="#ff0000"\/>/);
    }
  });

  it('splits #rrggbbaa colours into a colour and an opacity', () => {
    const svg = renderSvg(SHORT_URL, design({ color1: '#11223380', bgColor: '#ffffffcc' }));
    expect(svg).toContain('fill="#112233" fill-opacity="0.502"');
    expect(svg).toContain('fill="#ffffff" fill-opacity="0.8"');
  });

  it('draws linear gradients along the rotation and radial ones from the centre', () => {
    const n = createQrMatrix(SHORT_URL, 'Q').size;
    const linear = renderSvg(SHORT_URL, design({ isGradient: true, gradientRotation: 90, color2: '#ff0000' }));
    expect(linear).toContain(`x1="${n / 2}" y1="0" x2="${n / 2}" y2="${n}"`);
    const radial = renderSvg(SHORT_URL, design({ isGradient: true, gradientType: 'radial', color2: '#ff0000' }));
    expect(radial).toMatch(new RegExp(`<radialGradient id="qrg-\\w+" gradientUnits="userSpaceOnUse" cx="${n / 2}" cy="${n / 2}"`));
  });

  it('shrinks long frame text to fit the frame, never overflowing', () => {
    for (const frameStyle of ['bottom-banner', 'phone', 'badge'] as const) {
      const short = renderSvg(SHORT_URL, design({ frameStyle, frameText: 'Hi' }), { size: 500 });
      const long = renderSvg(SHORT_URL, design({ frameStyle, frameText: 'W'.repeat(LIMITS.frameText.maxLength) }), { size: 500 });
      const scaleOf = (svg: string) => Number(/<path transform="translate\(([-\d.]+) [\d.]+\) scale\(([\d.]+)\)"/.exec(svg)![2]);
      const xOf = (svg: string) => Number(/<path transform="translate\(([-\d.]+) /.exec(svg)![1]);
      expect(scaleOf(long)).toBeLessThan(scaleOf(short));
      expect(xOf(long)).toBeGreaterThanOrEqual(0);
      // Text width = 2 * (distance from left edge to centre) since it is centred.
      expect(xOf(long)).toBeGreaterThan(10);
    }
  });

  it('rejects sizes outside what the renderer supports and data too long to encode', () => {
    expect(() => renderSvg(SHORT_URL, design(), { size: 10 })).toThrow(ValidationError);
    expect(() => renderSvg(SHORT_URL, design(), { size: 100.5 })).toThrow(ValidationError);
    expect(() => renderSvg('x'.repeat(3000), design({ errorCorrectionLevel: 'H' }))).toThrow(/^data: too long to encode/);
  });
});

describe('logo box', () => {
  it('covers at most logoSize × the level’s recovery share of the modules, at every size and level', () => {
    for (const level of ERROR_CORRECTION_LEVELS) {
      for (let version = 1; version <= 40; version++) {
        const n = 17 + 4 * version;
        for (const logoSize of [0.1, 0.25, 0.4, 0.5]) {
          const box = logoBox(n, level, logoSize);
          expect(box.side % 2).toBe(1);
          expect(box.start * 2 + box.side).toBe(n);
          if (box.side > 1) expect(box.side ** 2).toBeLessThanOrEqual(logoSize * RECOVERY[level] * n * n);
          expect(box.start).toBeGreaterThanOrEqual(9); // clear of eyes, separators and format information
        }
      }
    }
  });

  it('hides the dots behind the logo only when asked', () => {
    const hidden = renderSvg(SHORT_URL, design({ presetLogo: 'link', hideDotsBehindLogo: true }));
    const shown = renderSvg(SHORT_URL, design({ presetLogo: 'link', hideDotsBehindLogo: false }));
    expect(hidden.length).toBeLessThan(shown.length);
    expect(hidden).toContain('<circle');
  });
});
