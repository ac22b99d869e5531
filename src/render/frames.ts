// The three frames. Each frame fits the requested width; the code (with its quiet
// zone) sits in a square opening and the text gets its own band. Sizes are shares
// of the width so a frame looks the same at 500 px and at 2500 px.
import type { FrameStyle } from '../domain/design/design.ts';
import { roundedRect, num, type Radii } from './path-builder.ts';

export interface Box {
  x: number;
  y: number;
  w: number;
  h: number;
}

export interface FrameLayout {
  height: number;
  /** Square area for the code including its quiet zone. */
  code: Box;
  /** Frame shape (one path, nonzero rule), empty without a frame. */
  path: string;
  /** Band for the text, null without a frame. */
  text: Box | null;
}

const all = (r: number): Radii => [r, r, r, r];

export function frameLayout(style: FrameStyle, width: number): FrameLayout {
  switch (style) {
    case 'none':
      return { height: width, code: { x: 0, y: 0, w: width, h: width }, path: '', text: null };
    case 'bottom-banner':
      return bottomBanner(width);
    case 'phone':
      return phone(width);
    case 'badge':
      return badge(width);
  }
}

/** A rounded border around the code that widens into a text banner below it. */
function bottomBanner(W: number): FrameLayout {
  const border = Math.round(W * 0.035);
  const banner = Math.round(W * 0.17);
  const side = W - 2 * border;
  const height = border + side + banner;
  const radius = W * 0.05;
  const path = roundedRect(0, 0, W, height, all(radius)) + roundedRect(border, border, side, side, all(radius - border), true);
  return {
    height,
    code: { x: border, y: border, w: side, h: side },
    path: toPx(path),
    text: { x: border * 2, y: border + side, w: W - 4 * border, h: banner - border * 0.6 },
  };
}

/** A phone body: speaker slot and camera on top, the code as its screen, text on the chin. */
function phone(W: number): FrameLayout {
  const sideBorder = Math.round(W * 0.05);
  const top = Math.round(W * 0.13);
  const chin = Math.round(W * 0.2);
  const side = W - 2 * sideBorder;
  const height = top + side + chin;
  const slotW = W * 0.22;
  const slotH = W * 0.025;
  const slotY = top / 2 - slotH / 2;
  const cam = W * 0.018;
  const path =
    roundedRect(0, 0, W, height, all(W * 0.12)) +
    roundedRect(sideBorder, top, side, side, all(W * 0.035), true) +
    roundedRect((W - slotW) / 2, slotY, slotW, slotH, all(slotH / 2), true) +
    roundedRect((W + slotW) / 2 + cam * 2, top / 2 - cam, cam * 2, cam * 2, all(cam), true);
  return {
    height,
    code: { x: sideBorder, y: top, w: side, h: side },
    path: toPx(path),
    text: { x: sideBorder * 2, y: top + side, w: W - 4 * sideBorder, h: chin },
  };
}

/** A pill-shaped label above a bordered card, with a small pointer towards the code. */
function badge(W: number): FrameLayout {
  const pill = Math.round(W * 0.15);
  const cardTop = Math.round(pill + W * 0.03);
  const border = Math.round(W * 0.03);
  const side = W - 2 * border;
  const height = cardTop + border + side + border;
  const inset = W * 0.06;
  const pointer = W * 0.05;
  const path =
    roundedRect(inset, 0, W - 2 * inset, pill, all(pill / 2)) +
    `M${num(W / 2 - pointer)} ${num(pill - 1)}h${num(2 * pointer)}l${num(-pointer)} ${num(W * 0.035 + 1)}z` +
    roundedRect(0, cardTop, W, height - cardTop, all(W * 0.06)) +
    roundedRect(border, cardTop + border, side, side, all(W * 0.03), true);
  return {
    height,
    code: { x: border, y: cardTop + border, w: side, h: side },
    path: toPx(path),
    text: { x: inset + pill * 0.4, y: 0, w: W - 2 * inset - pill * 0.8, h: pill },
  };
}

/** Frame paths are in pixels: two decimals are plenty. */
function toPx(d: string): string {
  return d.replace(/-?\d+\.\d{3,}/g, (m) => String(Math.round(Number(m) * 100) / 100));
}
