// What a logo costs to draw once every reference is followed. A few hundred bytes of
// patterns (or masks, clip paths, uses) that each draw the next ten times expand to 10^8
// shapes (docs/decisions/logo-limits.md), and a filter radius "capped" at 100 units is 25,000 px under a tiny
// viewBox. So the references are walked as the renderer would instantiate them — use
// href, url(#id) in attributes, style attributes and the style sheet, pattern and gradient
// href inheritance — with budgets on the expanded size, the nesting and the layers, while
// tracking how many device pixels a user unit can become at each point. The walk stops
// as soon as a budget is spent, so it is linear in the budget, not in the expansion.
import { decodeBase64 } from '../domain/base64.ts';
import { checkRasterSize, MAX_LOGO_PIXELS } from '../domain/raster-size.ts';
import { cleanValue, mayMatch, type Rule } from './svg-css.ts';
import {
  clampNumbers,
  geometryNumbers,
  isPercentage,
  numberLength,
  numberList,
  pathExtent,
  plainLength,
  transformBounds,
  transformScale,
} from './svg-numbers.ts';
import { elements, type SvgNode, SvgRejected } from './svg-tree.ts';

/** Bounds set by what resvg pays at the largest logo size (docs/designs.md, docs/decisions/logo-limits.md). */
export const REFERENCE_LIMITS = {
  /** Element instances once every reference is expanded (the same bound as the input's elements). */
  instances: 20_000,
  /** Reference hops in a row (use → symbol → gradient → gradient is 3). */
  depth: 6,
  /** Patterns, masks and clip paths inside one another. */
  layerNesting: 3,
  /** Pattern, mask, clip-path and filter instances: each is an offscreen bitmap. */
  layers: 32,
  primitivesPerFilter: 16,
  /** Filter primitive instances over the whole drawing. */
  primitives: 32,
  /** url()-carrying style rules × elements checked against them. */
  sheetChecks: 4_000_000,
  /**
   * How far from the drawing any coordinate may land, in device pixels at the largest logo
   * size. The rasterizer (tiny-skia 0.10 in resvg 2.6) aborts the whole process on some
   * paths around 2×10^7 px; a logo never needs more than a few thousand.
   */
  devicePx: 1_000_000,
} as const;

/**
 * Device-pixel caps for filter parameters at the largest logo size, whatever the scale (see
 * capFilters). Only the morphology radius drives the cost; the others keep regions sane.
 */
export const FILTER_CAPS_PX = { radius: 8, stdDeviation: 256, offset: 2048, region: 4096 } as const;
/** A radius this many times over its cap is not a logo that needs a little clamping: it is refused. */
const REFUSE_OVER_CAP = 4;

type Kind = 'pattern' | 'mask' | 'clipPath' | 'filter' | 'other';

const DEFINITIONS = new Set(['defs', 'pattern', 'mask', 'clipPath', 'filter', 'symbol', 'linearGradient', 'radialGradient']);
const URL_ATTRIBUTES = ['fill', 'stroke', 'clip-path', 'mask', 'filter'] as const;
const HREF_FOLLOWERS = new Set(['use', 'pattern', 'linearGradient', 'radialGradient']);

/**
 * Throws SvgRejected when the logo is too costly to draw; returns, for each filter that is
 * drawn, the most device pixels one of its user units can cover.
 */
export function checkReferences(root: SvgNode, sheet: Rule[], maxDrawPx: number): Map<SvgNode, number> {
  const ids = new Map<string, SvgNode>();
  for (const el of elements(root)) {
    const id = el.attrs.get('id');
    if (id !== undefined && !ids.has(id)) ids.set(id, el);
  }
  const refsOf = referenceReader(root, sheet, ids);
  const viewport = rootUnits(root);
  const filterScales = new Map<SvgNode, number>();
  const onPath = new Set<SvgNode>();
  let instances = 0;
  let layers = 0;
  let primitives = 0;
  /** Decoded pixels of every <image> instance: each one is decoded when it is drawn. */
  let pixels = 0;
  const pixelCache = new Map<SvgNode, number>();
  const imagePixels = (node: SvgNode): number => {
    let n = pixelCache.get(node);
    if (n === undefined) {
      const href = node.attrs.get('href');
      const size = href === undefined ? { width: 0, height: 0 } : checkRasterSize(decodeBase64(href.slice(href.indexOf(',') + 1)));
      n = typeof size === 'string' ? MAX_LOGO_PIXELS + 1 : size.width * size.height;
      pixelCache.set(node, n);
    }
    return n;
  };
  const tooComplex = (why: string): never => {
    throw new SvgRejected(`too complex (${why})`);
  };

  const sheetStroke = Math.max(
    0,
    ...sheet.flatMap((r) => r.declarations.filter((d) => d.property === 'stroke-width').map((d) => leadingNumber(d.value.text))),
  );
  /** Per element, not per instance: a long path used a thousand times is read once. */
  const geometry = new Map<SvgNode, { scale: number; shift: number; reach: number; origin: number }>();
  const geometryOf = (node: SvgNode) => {
    let g = geometry.get(node);
    if (g === undefined) {
      const t =
        node === root ? { scale: 1 / viewport, shift: 0 } : (transformBounds(node.attrs.get('transform') ?? '') ?? { scale: 1, shift: 0 });
      g = {
        scale: t.scale * (node.name === 'svg' && node !== root ? viewBoxScale(node, node, viewport) : 1),
        shift: t.shift,
        reach: coordinateExtent(node, viewport) + strokeWidth(node, sheetStroke),
        origin: node.name === 'svg' || node.name === 'use' ? origin(node) : 0,
      };
      geometry.set(node, g);
    }
    return g;
  };
  const reach = (px: number): void => {
    if (!(px <= REFERENCE_LIMITS.devicePx))
      tooComplex(
        `coordinates reach ${px > 1e12 ? 'beyond 10^12' : Math.round(px)} px at the largest logo size; at most ${REFERENCE_LIMITS.devicePx}`,
      );
  };

  /**
   * Visits one instance of `node`. `acc` is the most device pixels a user unit of the parent
   * can become, `offset` how far (in device pixels) the parent's origin can be from the
   * drawing's. Returns how far from the drawing's origin this instance can reach.
   */
  const walk = (node: SvgNode, acc: number, offset: number, hops: number, nesting: number, instantiated: boolean): number => {
    if (++instances > REFERENCE_LIMITS.instances)
      tooComplex(`more than ${REFERENCE_LIMITS.instances} elements once references are expanded`);
    if (onPath.has(node)) tooComplex(`a reference cycle through ${describe(node)}`);
    onPath.add(node);
    const g = geometryOf(node);
    const here = offset + g.shift * acc;
    const scale = acc * g.scale;
    let extent = here + g.reach * scale;
    reach(extent);
    if (node.name === 'image') {
      pixels += imagePixels(node);
      if (pixels > MAX_LOGO_PIXELS) tooComplex(`embedded images add up to more than 16 megapixels once references are expanded`);
    }
    const inner = here + g.origin * scale;
    if (instantiated || !DEFINITIONS.has(node.name)) {
      for (const c of node.children) if (typeof c !== 'string') extent = Math.max(extent, walk(c, scale, inner, hops, nesting, false));
    }
    // Referenced content is placed after the element's own extent is known: a bounding box
    // (objectBoundingBox units) is at most twice as far across as the element reaches.
    for (const target of refsOf(node)) {
      const reached = follow(node, target, scale, inner, extent, hops, nesting);
      if (kindOf(target) === 'other') extent = Math.max(extent, reached);
    }
    onPath.delete(node);
    return extent;
  };

  const follow = (from: SvgNode, target: SvgNode, acc: number, offset: number, extent: number, hops: number, nesting: number): number => {
    if (hops + 1 > REFERENCE_LIMITS.depth) tooComplex(`references nested deeper than ${REFERENCE_LIMITS.depth}`);
    const kind = kindOf(target);
    /** User units of `from` across its bounding box, at most. */
    const box = (2 * extent) / Math.max(acc, 1e-12);
    let factor = 1;
    if (kind !== 'other' && ++layers > REFERENCE_LIMITS.layers)
      tooComplex(`more than ${REFERENCE_LIMITS.layers} patterns, masks, clip paths and filters once references are expanded`);
    if (kind === 'pattern' || kind === 'mask' || kind === 'clipPath') {
      if (nesting + 1 > REFERENCE_LIMITS.layerNesting) tooComplex(`${kind} nesting deeper than ${REFERENCE_LIMITS.layerNesting}`);
      factor =
        kind === 'pattern'
          ? patternScale(target, box)
          : contentUnitsScale(target, kind === 'mask' ? 'maskContentUnits' : 'clipPathUnits', box);
      nesting += 1;
      offset = extent; // the content is placed somewhere within the element's reach
    } else if (kind === 'filter') {
      const count = target.children.filter((c) => typeof c !== 'string').length;
      if (count > REFERENCE_LIMITS.primitivesPerFilter)
        tooComplex(`a filter with more than ${REFERENCE_LIMITS.primitivesPerFilter} primitives`);
      primitives += count;
      if (primitives > REFERENCE_LIMITS.primitives)
        tooComplex(`more than ${REFERENCE_LIMITS.primitives} filter primitives once references are expanded`);
      const units = target.attrs.get('primitiveUnits') === 'objectBoundingBox' ? box : 1;
      filterScales.set(target, Math.max(filterScales.get(target) ?? 0, acc * units));
      offset = extent;
    } else if (from.name === 'use' && target.name === 'symbol') {
      factor = viewBoxScale(target, from, viewport);
    }
    return walk(target, acc * factor, offset, hops + 1, nesting, true);
  };

  walk(root, maxDrawPx, 0, 0, 0, false);
  return filterScales;
}

function kindOf(node: SvgNode): Kind {
  return node.name === 'pattern' || node.name === 'mask' || node.name === 'clipPath' || node.name === 'filter' ? node.name : 'other';
}

function describe(node: SvgNode): string {
  const id = node.attrs.get('id');
  return id === undefined ? `<${node.name}>` : `#${id}`;
}

/** Every element an element refers to: hrefs, url(#id) in attributes, its style and matching sheet rules. */
function referenceReader(root: SvgNode, sheet: Rule[], ids: Map<string, SvgNode>): (node: SvgNode) => SvgNode[] {
  const urlRules = sheet
    .map((r) => ({ selectors: r.selectors, refs: r.declarations.flatMap((d) => d.value.refs) }))
    .filter((r) => r.refs.length > 0);
  let count = 0;
  for (const _ of elements(root)) count++;
  if (urlRules.length * count > REFERENCE_LIMITS.sheetChecks) {
    throw new SvgRejected('too complex (too many style rules with url() for this many elements)');
  }
  const cache = new Map<SvgNode, SvgNode[]>();
  return (node) => {
    let refs = cache.get(node);
    if (refs) return refs;
    const named: string[] = [];
    const href = node.attrs.get('href');
    if (href?.startsWith('#') && HREF_FOLLOWERS.has(node.name)) named.push(href.slice(1));
    for (const a of URL_ATTRIBUTES) {
      const v = node.attrs.get(a);
      if (v !== undefined) named.push(...(cleanValue(v)?.refs ?? []));
    }
    const style = node.attrs.get('style');
    if (style !== undefined)
      for (const part of style.split(';')) named.push(...(cleanValue(part.slice(part.indexOf(':') + 1))?.refs ?? []));
    if (urlRules.length) {
      const id = node.attrs.get('id');
      const classes = (node.attrs.get('class') ?? '').split(/\s+/);
      for (const r of urlRules) if (r.selectors.some((s) => mayMatch(s.last, node.name, id, classes))) named.push(...r.refs);
    }
    refs = [...new Set(named)].map((id) => ids.get(id)).filter((n): n is SvgNode => n !== undefined);
    cache.set(node, refs);
    return refs;
  };
}

/** Smallest side of the root's coordinate system: the renderer fits it into the logo box. */
function rootUnits(root: SvgNode): number {
  const vb = numberList(root.attrs.get('viewBox') ?? '');
  if (vb && vb.length === 4) return Math.min(vb[2]!, vb[3]!);
  const w = plainLength(root.attrs.get('width'));
  const h = plainLength(root.attrs.get('height'));
  return Math.min(w ?? 100, h ?? 100);
}

/** A viewBox fitted into a viewport of the given element's width and height (100 % when absent). */
function viewBoxScale(box: SvgNode, sized: SvgNode, viewport: number): number {
  const vb = numberList(box.attrs.get('viewBox') ?? '');
  if (vb?.length !== 4) return 1;
  const side = Math.max(plainLength(sized.attrs.get('width')) ?? viewport, plainLength(sized.attrs.get('height')) ?? viewport);
  return side / Math.min(vb[2]!, vb[3]!);
}

/** Object-bounding-box units stretch the content by the box: `box` user units at most. */
function contentUnitsScale(node: SvgNode, attr: string, box: number): number {
  return node.attrs.get(attr) === 'objectBoundingBox' ? box : 1;
}

function patternScale(p: SvgNode, box: number): number {
  let k = transformScale(p.attrs.get('patternTransform') ?? '') ?? 1;
  const vb = numberList(p.attrs.get('viewBox') ?? '');
  if (vb && vb.length === 4) {
    const tile = Math.max(plainLength(p.attrs.get('width')) ?? 1, plainLength(p.attrs.get('height')) ?? 1);
    const units = p.attrs.get('patternUnits') === 'userSpaceOnUse' ? 1 : box;
    k *= (tile * units) / Math.min(vb[2]!, vb[3]!);
  } else {
    k *= contentUnitsScale(p, 'patternContentUnits', box);
  }
  return k;
}

const POSITIONS = ['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy'] as const;
const SIZES = ['width', 'height', 'r', 'rx', 'ry'] as const;

/** The largest absolute coordinate an element's own geometry reaches, in its user units. */
function coordinateExtent(node: SvgNode, viewport: number): number {
  // Filter regions and primitive subregions are capped in device pixels by capFilters.
  if (node.name === 'filter' || node.name.startsWith('fe')) return 0;
  const most = (keys: readonly string[]) => {
    let m = 0;
    for (const k of keys) {
      const v = node.attrs.get(k);
      if (v !== undefined) for (const x of geometryNumbers(v, viewport) ?? []) m = Math.max(m, Math.abs(x));
    }
    return m;
  };
  let e = most(POSITIONS) + most(SIZES);
  const d = node.attrs.get('d');
  if (d !== undefined) e = Math.max(e, pathExtent(d));
  const points = node.attrs.get('points');
  if (points !== undefined) for (const x of numberList(points) ?? []) e = Math.max(e, Math.abs(x));
  return e;
}

/** How far a `use` or nested `svg` moves its content. */
function origin(node: SvgNode): number {
  const at = (k: string) => Math.abs(geometryNumbers(node.attrs.get(k) ?? '0')?.[0] ?? 0);
  return at('x') + at('y');
}

function strokeWidth(node: SvgNode, sheetStroke: number): number {
  let w = Math.abs(leadingNumber(node.attrs.get('stroke-width') ?? ''));
  const style = node.attrs.get('style') ?? '';
  const at = style.indexOf('stroke-width:');
  if (at >= 0) w = Math.max(w, Math.abs(leadingNumber(style.slice(at + 13))));
  return Math.max(w, sheetStroke);
}

function leadingNumber(s: string): number {
  const v = s.trim();
  const n = numberLength(v, 0);
  const x = n ? Number(v.slice(0, n)) : 0;
  return Number.isFinite(x) ? Math.abs(x) : Infinity;
}

/**
 * Caps each drawn filter's parameters in device pixels: a value in user units may be at
 * most cap ÷ (device pixels per user unit). Filters that nothing draws are left alone.
 */
export function capFilters(filterScales: Map<SvgNode, number>): void {
  for (const [filter, pxPerUnit] of filterScales) {
    const cap = (px: number) => Number((px / Math.max(pxPerUnit, 1e-9)).toPrecision(4));
    const userSpace = filter.attrs.get('filterUnits') === 'userSpaceOnUse';
    for (const key of ['x', 'y', 'width', 'height'] as const) {
      const v = filter.attrs.get(key);
      if (v === undefined) continue;
      // Bounding-box fractions: a region at most a few boxes wide; user space: a few logo widths.
      const limit = userSpace ? cap(FILTER_CAPS_PX.region) : key === 'x' || key === 'y' ? 2 : 5;
      filter.attrs.set(key, clampNumbers(v, isPercentage(v) ? limit * 100 : limit));
    }
    const primitiveUserSpace = filter.attrs.get('primitiveUnits') !== 'objectBoundingBox';
    for (const p of filter.children) {
      if (typeof p === 'string') continue;
      const clamp = (key: string, px: number) => {
        const v = p.attrs.get(key);
        // A percentage of the viewport is already bounded by it.
        if (v !== undefined && !isPercentage(v)) p.attrs.set(key, clampNumbers(v, cap(px)));
      };
      const radius = numberList(p.attrs.get('radius') ?? '');
      const widest = Math.max(0, ...(radius ?? []));
      if (widest * pxPerUnit > FILTER_CAPS_PX.radius * REFUSE_OVER_CAP) {
        const px = Math.round(widest * pxPerUnit);
        throw new SvgRejected(`too complex (a filter radius of ${px} px at the largest logo size; at most ${FILTER_CAPS_PX.radius} px)`);
      }
      clamp('radius', FILTER_CAPS_PX.radius);
      clamp('stdDeviation', FILTER_CAPS_PX.stdDeviation);
      clamp('dx', FILTER_CAPS_PX.offset);
      clamp('dy', FILTER_CAPS_PX.offset);
      if (primitiveUserSpace) for (const key of ['x', 'y', 'width', 'height']) clamp(key, FILTER_CAPS_PX.region);
    }
  }
}
