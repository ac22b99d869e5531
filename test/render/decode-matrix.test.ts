import { setImmediate as nextTurn } from 'node:timers/promises';
import { describe, expect, it } from 'vitest';
import { CORNER_STYLES, DOT_STYLES, ERROR_CORRECTION_LEVELS, FRAME_STYLES, PRESET_LOGOS } from '../../src/domain/design/design.ts';
import { colourWarnings } from '../../src/render/design-warnings.ts';
import { renderPng } from '../../src/render/index.ts';
import { decodePng } from './decode.ts';
import { coverage, decodeMatrix } from './scan-matrix.ts';

const CASES = decodeMatrix(Number(process.env.DECODE_MATRIX_EXTRA ?? 450));

describe('decode matrix: styled codes scan to the exact short URL', () => {
  it('covers every option value and every pair of main option values', () => {
    const seen = coverage(CASES);
    expect([...seen.dotsStyle!].sort()).toEqual([...DOT_STYLES].sort());
    expect([...seen.cornerSquare!].sort()).toEqual([...CORNER_STYLES].sort());
    expect([...seen.cornerDot!].sort()).toEqual([...CORNER_STYLES].sort());
    expect([...seen.fill!].sort()).toEqual(['linear', 'radial', 'solid']);
    expect([...seen.logo!].sort()).toEqual(['custom', 'none', 'preset']);
    expect([...seen.presetLogo!].sort()).toEqual([...PRESET_LOGOS].sort());
    expect([...seen.errorCorrectionLevel!].sort()).toEqual([...ERROR_CORRECTION_LEVELS].sort());
    expect([...seen.frameStyle!].sort()).toEqual([...FRAME_STYLES].sort());
  });

  it.each(CASES)('$name', async ({ data, design }) => {
    // Every palette here has adequate contrast; style warnings (a riskier look) do not matter on clean pixels.
    expect(colourWarnings(design)).toEqual([]);
    for (const size of [500, design.resolution]) {
      const png = renderPng(data, design, { size });
      expect(png.readUInt32BE(16)).toBe(size);
      expect(await decodePng(png, design.bgTransparent), `at ${size} px`).toBe(data);
      // resvg frees its native pixmap in a finalizer that runs on a later turn of the event loop.
      await nextTurn();
    }
  });
});
