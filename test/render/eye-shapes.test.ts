import { describe, expect, it } from 'vitest';
import { CORNER_STYLES, type CornerStyle } from '../../src/domain/design/design.ts';
import { eyeRadii, eyesPath } from '../../src/render/eye-shapes.ts';

/** Dark/light runs from the eye's centre out through corner `i` along the diagonal, in module widths. */
function diagonalRuns(ring: CornerStyle, centre: CornerStyle, i: number) {
  const cut = 1 - Math.SQRT1_2;
  const r = eyeRadii(ring, centre);
  const outer = 3.5 - cut * r.outside[i]!;
  const inner = 2.5 - cut * r.inside[i]!;
  const core = 1.5 - cut * r.centre[i]!;
  return { ring: outer - inner, gap: inner - core, halfCentre: core };
}

describe('eye shapes', () => {
  it('keeps the 1:1:3:1:1 finder ratio along the diagonals when ring and centre share a style', () => {
    for (const style of ['square', 'dot', 'extra-rounded'] as const) {
      for (let i = 0; i < 4; i++) {
        const { ring, gap, halfCentre } = diagonalRuns(style, style, i);
        expect(gap / ring, `${style} corner ${i}`).toBeCloseTo(1, 6);
        expect((2 * halfCentre) / ring, `${style} corner ${i}`).toBeCloseTo(3, 6);
      }
    }
  });

  it('balances ring and gap on every diagonal for every pair of styles (the circular ring stays a circle)', () => {
    for (const ring of CORNER_STYLES.filter((s) => s !== 'dot')) {
      for (const centre of CORNER_STYLES) {
        for (let i = 0; i < 4; i++) {
          const runs = diagonalRuns(ring, centre, i);
          expect(runs.gap / runs.ring, `${ring}/${centre} corner ${i}`).toBeGreaterThan(0.75);
          expect(runs.gap / runs.ring, `${ring}/${centre} corner ${i}`).toBeLessThan(1.34);
        }
      }
    }
  });

  it('keeps each style recognisable: circles stay circles, squares stay square, classy stays lopsided', () => {
    const dot = eyeRadii('dot', 'dot');
    for (let i = 0; i < 4; i++) {
      expect(dot.outside[i]).toBe(3.5);
      expect(dot.inside[i]).toBeCloseTo(2.5, 9);
      expect(dot.centre[i]).toBe(1.5);
    }
    expect(eyeRadii('square', 'square')).toEqual({ outside: [0, 0, 0, 0], inside: [0, 0, 0, 0], centre: [0, 0, 0, 0] });
    const classy = eyeRadii('classy', 'classy');
    expect(classy.outside[0]).toBeGreaterThan(0);
    expect(classy.outside[1]).toBe(0);
    expect(classy.centre[0]).toBeGreaterThan(classy.centre[1]);
    for (const centre of CORNER_STYLES) for (const r of eyeRadii('dot', centre).inside) expect(r).toBeCloseTo(2.5, 9);
  });

  it('draws three eyes, each as ring outside, ring inside (reversed) and centre', () => {
    const d = eyesPath(25, 'extra-rounded', 'dot');
    expect(d.match(/M/g)).toHaveLength(9);
    expect(d.startsWith('M1.75 0')).toBe(true);
  });
});
