// The three finder patterns ("eyes"): a 7×7 ring (corner square) around a 3×3
// centre (corner dot), drawn as whole shapes so they stay crisp.
//
// Scanners find an eye by its 1:1:3:1:1 dark–light run ratio, and several (jsQR,
// newer zxing) check it along the diagonals too. A rounded corner shortens the
// diagonal run of its shape by (1 − 1/√2) × its radius, so the ratio holds on every
// line through the centre only when the three outlines (ring outside, ring inside,
// centre) are similar shapes: radii in proportion to their half-sizes 3.5 : 2.5 : 1.5.
// Mismatched outlines lose to noise speckle in jsQR's scoring (docs/designs.md).
// So the ring's inside is not a style of its own: it is placed halfway between the
// ring's outside and the centre along each diagonal, which makes the outlines similar
// whenever the two chosen styles belong together and keeps the error small otherwise
// (the circular ring excepted: it stays a circle of even width).
import type { CornerStyle } from '../domain/design/design.ts';
import { finderOrigins } from './qr-matrix.ts';
import { roundedRect, rotateRadii, type Radii } from './path-builder.ts';

/** Outside corner radii of the 7×7 ring, clockwise from top-left (modules). */
const RING: Record<CornerStyle, Radii> = {
  square: [0, 0, 0, 0],
  dot: [3.5, 3.5, 3.5, 3.5],
  'extra-rounded': [1.75, 1.75, 1.75, 1.75],
  classy: [1, 0, 1, 0],
  'classy-rounded': [1, 0.5, 1, 0.5],
};

/** Corner radii of the 3×3 centre: 3/7 of the matching ring's, so the pair is similar. */
const CENTRE: Record<CornerStyle, Radii> = {
  square: [0, 0, 0, 0],
  dot: [1.5, 1.5, 1.5, 1.5],
  'extra-rounded': [0.75, 0.75, 0.75, 0.75],
  classy: [0.5, 0, 0.5, 0],
  'classy-rounded': [0.75, 0.25, 0.75, 0.25],
};

/** How much a corner of radius r shortens the diagonal, per unit of radius. */
const DIAGONAL_CUT = 1 - Math.SQRT1_2;

export interface EyeRadii {
  outside: Radii;
  inside: Radii;
  centre: Radii;
}

/** Corner radii of an eye's three outlines (top-left eye's orientation). */
export function eyeRadii(ring: CornerStyle, centre: CornerStyle): EyeRadii {
  return { outside: RING[ring], inside: ringInsideRadii(RING[ring], CENTRE[centre]), centre: CENTRE[centre] };
}

/**
 * Inside radii of the ring: its diagonal extent halfway between the outside's and the
 * centre's, but never sharper than a ring of even width (outside radius − 1). That
 * keeps the circular ring a true circle: with a square hole zxing missed it at some
 * sizes even on clean pixels.
 */
function ringInsideRadii(outside: Radii, centre: Radii): Radii {
  return outside.map((ro, i) => {
    const outer = 3.5 - DIAGONAL_CUT * ro;
    const inner = 1.5 - DIAGONAL_CUT * centre[i]!;
    const balanced = (2.5 - (outer + inner) / 2) / DIAGONAL_CUT;
    return Math.min(2.5, Math.max(0, ro - 1, balanced));
  }) as unknown as Radii;
}

/** Quarter turns per eye (top-left, top-right, bottom-left), as the generator orients them. */
const TURNS = [0, 1, -1] as const;

/** All three eyes' rings and centres as one path (nonzero rule: holes run counter-clockwise). */
export function eyesPath(size: number, ring: CornerStyle, centre: CornerStyle): string {
  const r = eyeRadii(ring, centre);
  return finderOrigins(size)
    .map(([x, y], i) => {
      const turns = TURNS[i] ?? 0;
      return (
        roundedRect(x, y, 7, 7, rotateRadii(r.outside, turns)) +
        roundedRect(x + 1, y + 1, 5, 5, rotateRadii(r.inside, turns), true) +
        roundedRect(x + 2, y + 2, 3, 3, rotateRadii(r.centre, turns))
      );
    })
    .join('');
}
