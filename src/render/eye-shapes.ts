// The three finder patterns ("eyes"): a 7×7 ring (corner square) around a 3×3
// centre (corner dot). Drawn as whole shapes, not module by module, so they stay
// crisp; proportions (ring 1 module, gap 1 module, centre 3) are kept for scanning.
// Ring radii are tighter than the web generator's (2.5 / 1.5 modules for
// extra-rounded): measured with zxing over many sizes and versions, rounder rings
// (and the lopsided classy ones most of all) are missed at some sizes, while these
// decode every time even without zxing's try-harder mode. The centres keep the
// generator's full shapes; they do not hurt detection. The dot ring stays a circle:
// that is what the style means.
import type { CornerStyle } from '../domain/design.ts';
import { finderOrigins } from './qr-matrix.ts';
import { roundedRect, rotateRadii, type Radii } from './path-builder.ts';

interface RingRadii {
  outer: Radii;
  inner: Radii;
}

const RING: Record<CornerStyle, RingRadii> = {
  square: { outer: [0, 0, 0, 0], inner: [0, 0, 0, 0] },
  dot: { outer: [3.5, 3.5, 3.5, 3.5], inner: [2.5, 2.5, 2.5, 2.5] },
  'extra-rounded': { outer: [1.75, 1.75, 1.75, 1.75], inner: [0.75, 0.75, 0.75, 0.75] },
  classy: { outer: [1, 0, 1, 0], inner: [0, 0, 0, 0] },
  'classy-rounded': { outer: [1, 0.5, 1, 0.5], inner: [0, 0, 0, 0] },
};

const CENTRE: Record<CornerStyle, Radii> = {
  square: [0, 0, 0, 0],
  dot: [1.5, 1.5, 1.5, 1.5],
  'extra-rounded': [1, 1, 1, 1],
  classy: [1.5, 0, 1.5, 0],
  'classy-rounded': [1.5, 0.5, 1.5, 0.5],
};

/** Quarter turns per eye (top-left, top-right, bottom-left), as the generator orients them. */
const TURNS = [0, 1, -1] as const;

/** All three eyes' rings and centres as one path (nonzero rule: holes run counter-clockwise). */
export function eyesPath(size: number, ring: CornerStyle, centre: CornerStyle): string {
  return finderOrigins(size)
    .map(([x, y], i) => {
      const turns = TURNS[i] ?? 0;
      const r = RING[ring];
      return (
        roundedRect(x, y, 7, 7, rotateRadii(r.outer, turns)) +
        roundedRect(x + 1, y + 1, 5, 5, rotateRadii(r.inner, turns), true) +
        roundedRect(x + 2, y + 2, 3, 3, rotateRadii(CENTRE[centre], turns))
      );
    })
    .join('');
}
