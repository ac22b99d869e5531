// Path-data helpers. Shapes are built in module units, so most numbers are small
// integers or halves: short strings, and identical output at every pixel size.

/** Shortest decimal for a coordinate, rounded to 1/1000 (enough for module units). */
export function num(v: number): string {
  const r = Math.round(v * 1000) / 1000;
  return Object.is(r, -0) ? '0' : String(r);
}

/** Radii of the four corners, clockwise from top-left. */
export type Radii = readonly [tl: number, tr: number, br: number, bl: number];

export const SQUARE: Radii = [0, 0, 0, 0];

/**
 * A rectangle with per-corner radii as one closed sub-path. Clockwise by default;
 * `ccw` reverses it so that, under the nonzero rule, it cuts a hole in a clockwise shape.
 */
export function roundedRect(x: number, y: number, w: number, h: number, r: Radii, ccw = false): string {
  const [tl, tr, br, bl] = r;
  if (ccw) return roundedRectCcw(x, y, w, h, r);
  let d = `M${num(x + tl)} ${num(y)}`;
  d += line('h', w - tl - tr) + arc(tr, tr, tr);
  d += line('v', h - tr - br) + arc(br, -br, br);
  d += line('h', -(w - br - bl)) + arc(bl, -bl, -bl);
  d += line('v', -(h - bl - tl)) + arc(tl, tl, -tl);
  return d + 'z';
}

function roundedRectCcw(x: number, y: number, w: number, h: number, r: Radii): string {
  const [tl, tr, br, bl] = r;
  let d = `M${num(x)} ${num(y + tl)}`;
  d += line('v', h - tl - bl) + arc(bl, bl, bl, 0);
  d += line('h', w - bl - br) + arc(br, br, -br, 0);
  d += line('v', -(h - br - tr)) + arc(tr, -tr, -tr, 0);
  d += line('h', -(w - tr - tl)) + arc(tl, -tl, tl, 0);
  return d + 'z';
}

function line(cmd: 'h' | 'v', len: number): string {
  return Math.abs(len) < 1e-9 ? '' : cmd + num(len);
}

function arc(r: number, dx: number, dy: number, sweep = 1): string {
  return r <= 0 ? '' : `a${num(r)} ${num(r)} 0 0 ${sweep} ${num(dx)} ${num(dy)}`;
}

/** Rotates corner radii a quarter turn clockwise `turns` times (eyes face outwards). */
export function rotateRadii(r: Radii, turns: number): Radii {
  let out = r;
  for (let i = 0; i < ((turns % 4) + 4) % 4; i++) out = [out[3], out[0], out[1], out[2]];
  return out;
}
