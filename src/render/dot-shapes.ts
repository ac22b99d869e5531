// Data modules ("dots") as one path, shaped like the web generator's styles.
// Every style reduces to per-corner radii of a unit square, decided by which of the
// four neighbours are dark: a corner is rounded only where both its sides are open,
// so runs of modules flow into each other and lone modules become blobs.
import type { DotStyle } from '../domain/design/design.ts';
import { roundedRect, type Radii } from './path-builder.ts';

/** Which modules to draw: dark data modules outside the eyes and the logo hole. */
export interface DotGrid {
  size: number;
  isDot(x: number, y: number): boolean;
}

export function dotsPath(grid: DotGrid, style: DotStyle): string {
  if (style === 'square') return squareRuns(grid);
  const parts: string[] = [];
  for (let y = 0; y < grid.size; y++) {
    for (let x = 0; x < grid.size; x++) {
      if (!grid.isDot(x, y)) continue;
      parts.push(roundedRect(x, y, 1, 1, dotRadii(style, neighbours(grid, x, y))));
    }
  }
  return parts.join('');
}

/** Square modules merged into horizontal runs: fewer sub-paths, no seams. */
function squareRuns(grid: DotGrid): string {
  const parts: string[] = [];
  for (let y = 0; y < grid.size; y++) {
    let x = 0;
    while (x < grid.size) {
      if (!grid.isDot(x, y)) {
        x++;
        continue;
      }
      const start = x;
      while (x < grid.size && grid.isDot(x, y)) x++;
      parts.push(`M${start} ${y}h${x - start}v1h${start - x}z`);
    }
  }
  return parts.join('');
}

interface Neighbours {
  top: boolean;
  right: boolean;
  bottom: boolean;
  left: boolean;
}

function neighbours(grid: DotGrid, x: number, y: number): Neighbours {
  const at = (cx: number, cy: number) => cx >= 0 && cy >= 0 && cx < grid.size && cy < grid.size && grid.isDot(cx, cy);
  return { top: at(x, y - 1), right: at(x + 1, y), bottom: at(x, y + 1), left: at(x - 1, y) };
}

const HALF = 0.5;

export function dotRadii(style: Exclude<DotStyle, 'square'>, n: Neighbours): Radii {
  const openTl = !n.top && !n.left;
  const openTr = !n.top && !n.right;
  const openBr = !n.bottom && !n.right;
  const openBl = !n.bottom && !n.left;
  const count = Number(n.top) + Number(n.right) + Number(n.bottom) + Number(n.left);
  switch (style) {
    case 'dots':
      return [HALF, HALF, HALF, HALF];
    case 'rounded':
      return [openTl ? HALF : 0, openTr ? HALF : 0, openBr ? HALF : 0, openBl ? HALF : 0];
    case 'extra-rounded': {
      // An elbow (two neighbours at a right angle) becomes a quarter disc.
      const r = count === 2 ? 1 : HALF;
      return [openTl ? r : 0, openTr ? r : 0, openBr ? r : 0, openBl ? r : 0];
    }
    case 'classy':
      return [openTl ? HALF : 0, 0, openBr ? HALF : 0, 0];
    case 'classy-rounded': {
      const r = count === 0 ? HALF : 1;
      return [openTl ? r : 0, 0, openBr ? r : 0, 0];
    }
  }
}
