// Camera-like damage to a rendered code: what a phone sees when the print is small,
// out of focus, compressed, tilted, seen at an angle, noisy or unevenly lit. Scaling,
// blur, JPEG and rotation are done by sharp (libvips); the perspective warp, sensor
// noise and lighting gradient have no sharp operation, so they are done here on raw
// pixels, seeded so every run sees the same damage.
import sharp, { type Sharp } from 'sharp';
import { mulberry32 } from '../render/scan-matrix.ts';
import type { Pixels } from './decoders.ts';

sharp.concurrency(1);

type Step =
  | { op: 'resize'; width: number } // as if the BASE_WIDTH image were seen `width` pixels wide
  | { op: 'blur'; sigma: number }
  | { op: 'jpeg'; quality: number }
  | { op: 'rotate'; degrees: number }
  | { op: 'keystone'; squeeze: number }
  | { op: 'noise'; sigma: number }
  | { op: 'light'; darkest: number };

export interface Degradation {
  name: string;
  steps: Step[];
}

/** The camera conditions, applied to a code rendered at BASE_WIDTH pixels. */
export const BASE_WIDTH = 400;
export const DEGRADATIONS: readonly Degradation[] = [
  { name: '250 px', steps: [{ op: 'resize', width: 250 }] },
  { name: '150 px', steps: [{ op: 'resize', width: 150 }] },
  { name: 'blur σ1', steps: [{ op: 'blur', sigma: 1 }] },
  { name: 'blur σ2', steps: [{ op: 'blur', sigma: 2 }] },
  { name: 'JPEG q30', steps: [{ op: 'jpeg', quality: 30 }] },
  { name: 'rotate 10°', steps: [{ op: 'rotate', degrees: 10 }] },
  { name: 'rotate 30°', steps: [{ op: 'rotate', degrees: 30 }] },
  { name: 'keystone', steps: [{ op: 'keystone', squeeze: 0.3 }] },
  { name: 'noise σ20', steps: [{ op: 'noise', sigma: 20 }] },
  { name: 'light gradient', steps: [{ op: 'light', darkest: 0.35 }] },
  {
    name: '250 px + blur σ1 + JPEG q30',
    steps: [
      { op: 'resize', width: 250 },
      { op: 'blur', sigma: 1 },
      { op: 'jpeg', quality: 30 },
    ],
  },
  {
    name: 'rotate 10° + noise σ20 + light',
    steps: [
      { op: 'rotate', degrees: 10 },
      { op: 'noise', sigma: 20 },
      { op: 'light', darkest: 0.5 },
    ],
  },
  {
    name: 'keystone + blur σ1 + JPEG q30',
    steps: [
      { op: 'keystone', squeeze: 0.2 },
      { op: 'blur', sigma: 1 },
      { op: 'jpeg', quality: 30 },
    ],
  },
  {
    name: 'keystone + rotate 10° + 250 px',
    steps: [
      { op: 'keystone', squeeze: 0.2 },
      { op: 'rotate', degrees: 10 },
      { op: 'resize', width: 250 },
    ],
  },
];

const WHITE = { r: 255, g: 255, b: 255, alpha: 1 };

/**
 * How many noise fields a degradation with sensor noise is read under. One field decides a
 * coloured code's fate by where its speckle happens to fall (the same code read or failed
 * as it moved by a pixel), so a noise row is the share of these fields a design reads under.
 */
export const NOISE_FIELDS = 4;

export function hasNoise(d: Degradation): boolean {
  return d.steps.some((s) => s.op === 'noise');
}

/** `field` picks one of the seeded noise fields (0 is the one every earlier run used). */
export async function degrade(px: Pixels, d: Degradation, field = 0): Promise<Pixels> {
  let out = px;
  for (const [i, step] of d.steps.entries()) out = await apply(out, step, seedOf(d.name) + i + field * 7919);
  return out;
}

async function apply(px: Pixels, step: Step, seed: number): Promise<Pixels> {
  switch (step.op) {
    case 'resize':
      // Relative, so a smaller image (the ceiling of a framed design) shrinks by the same factor.
      return viaSharp(px, (s) => s.resize({ width: Math.round((px.width * step.width) / BASE_WIDTH), kernel: 'lanczos3' }));
    case 'blur':
      return viaSharp(px, (s) => s.blur(step.sigma));
    case 'jpeg': {
      const jpeg = await sharpOf(px).jpeg({ quality: step.quality }).toBuffer();
      return toPixels(sharp(jpeg));
    }
    case 'rotate':
      return viaSharp(px, (s) => s.rotate(step.degrees, { background: WHITE }));
    case 'keystone':
      return keystone(px, step.squeeze);
    case 'noise':
      return noise(px, step.sigma, seed);
    case 'light':
      return light(px, step.darkest);
  }
}

function sharpOf(px: Pixels): Sharp {
  return sharp(Buffer.from(px.data.buffer, px.data.byteOffset, px.data.byteLength), {
    raw: { width: px.width, height: px.height, channels: 4 },
  });
}

function viaSharp(px: Pixels, fn: (s: Sharp) => Sharp): Promise<Pixels> {
  return toPixels(fn(sharpOf(px)));
}

async function toPixels(s: Sharp): Promise<Pixels> {
  const { data, info } = await s.ensureAlpha().raw().toBuffer({ resolveWithObject: true });
  return { data: new Uint8ClampedArray(data.buffer, data.byteOffset, data.byteLength), width: info.width, height: info.height };
}

/**
 * The page seen from below: a true perspective warp that maps the image onto a
 * trapezoid whose top edge is narrower by `squeeze` of the width. Each output pixel
 * is mapped back through the homography and sampled bilinearly; outside is white.
 */
function keystone(px: Pixels, squeeze: number): Pixels {
  const { width: w, height: h } = px;
  const inset = (squeeze * w) / 2;
  // Output corners → source corners (top-left, top-right, bottom-right, bottom-left).
  const back = homography(
    [
      [inset, 0],
      [w - inset, 0],
      [w, h],
      [0, h],
    ],
    [
      [0, 0],
      [w, 0],
      [w, h],
      [0, h],
    ],
  );
  const out = new Uint8ClampedArray(w * h * 4).fill(255);
  for (let y = 0; y < h; y++) {
    for (let x = 0; x < w; x++) {
      const d = back[6]! * x + back[7]! * y + 1;
      const sx = (back[0]! * x + back[1]! * y + back[2]!) / d;
      const sy = (back[3]! * x + back[4]! * y + back[5]!) / d;
      if (sx < 0 || sy < 0 || sx > w - 1 || sy > h - 1) continue;
      sample(px, sx, sy, out, (y * w + x) * 4);
    }
  }
  return { data: out, width: w, height: h };
}

type Point = [number, number];

/** The 8 coefficients of the projective map taking each `from` point to its `to` point. */
function homography(from: Point[], to: Point[]): number[] {
  const rows: number[][] = [];
  from.forEach(([x, y], i) => {
    const [u, v] = to[i]!;
    rows.push([x, y, 1, 0, 0, 0, -u * x, -u * y, u]);
    rows.push([0, 0, 0, x, y, 1, -v * x, -v * y, v]);
  });
  // Gauss–Jordan elimination with partial pivoting on the 8×9 augmented matrix.
  for (let c = 0; c < 8; c++) {
    let pivot = c;
    for (let r = c + 1; r < 8; r++) if (Math.abs(rows[r]![c]!) > Math.abs(rows[pivot]![c]!)) pivot = r;
    [rows[c], rows[pivot]] = [rows[pivot]!, rows[c]!];
    const pr = rows[c]!;
    for (let r = 0; r < 8; r++) {
      if (r === c) continue;
      const f = rows[r]![c]! / pr[c]!;
      for (let k = c; k < 9; k++) rows[r]![k]! -= f * pr[k]!;
    }
  }
  return rows.map((r, c) => r[8]! / r[c]!);
}

function sample(px: Pixels, sx: number, sy: number, out: Uint8ClampedArray, at: number): void {
  const x0 = Math.floor(sx);
  const y0 = Math.floor(sy);
  const fx = sx - x0;
  const fy = sy - y0;
  const w = px.width;
  const i00 = (y0 * w + x0) * 4;
  const i10 = (y0 * w + Math.min(x0 + 1, w - 1)) * 4;
  const i01 = (Math.min(y0 + 1, px.height - 1) * w + x0) * 4;
  const i11 = (Math.min(y0 + 1, px.height - 1) * w + Math.min(x0 + 1, w - 1)) * 4;
  const d = px.data;
  for (let c = 0; c < 4; c++) {
    const top = d[i00 + c]! * (1 - fx) + d[i10 + c]! * fx;
    const bottom = d[i01 + c]! * (1 - fx) + d[i11 + c]! * fx;
    out[at + c] = top * (1 - fy) + bottom * fy;
  }
}

/** Gaussian sensor noise of `sigma` grey levels, the same on all three channels of a pixel. */
function noise(px: Pixels, sigma: number, seed: number): Pixels {
  const rand = mulberry32(seed);
  const out = new Uint8ClampedArray(px.data);
  for (let i = 0; i < out.length; i += 4) {
    const n = sigma * Math.sqrt(-2 * Math.log(rand() || 1e-12)) * Math.cos(2 * Math.PI * rand());
    out[i] = out[i]! + n;
    out[i + 1] = out[i + 1]! + n;
    out[i + 2] = out[i + 2]! + n;
  }
  return { ...px, data: out };
}

/** Light falling off from the top-left corner to `darkest` of full brightness at the bottom-right. */
function light(px: Pixels, darkest: number): Pixels {
  const out = new Uint8ClampedArray(px.data);
  const span = px.width + px.height - 2;
  for (let y = 0; y < px.height; y++) {
    for (let x = 0; x < px.width; x++) {
      const k = 1 - (1 - darkest) * ((x + y) / span);
      const i = (y * px.width + x) * 4;
      out[i] = out[i]! * k;
      out[i + 1] = out[i + 1]! * k;
      out[i + 2] = out[i + 2]! * k;
    }
  }
  return { ...px, data: out };
}

function seedOf(name: string): number {
  let h = 2166136261;
  for (const ch of name) h = Math.imul(h ^ ch.charCodeAt(0), 16777619) >>> 0;
  return h;
}
