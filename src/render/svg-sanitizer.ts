// Sanitizes user SVG logos by re-building them from an allow-list: the XML is parsed
// (saxes, strict and namespace-aware), every element and attribute not known to be
// inert is dropped, and the tree is serialized afresh. Nothing of the input's text
// reaches the output unparsed, so tricks of encoding or comments cannot slip through.
import { SaxesParser, type SaxesTagNS } from 'saxes';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Shapes, structure, paint servers, clipping, text and plain filters. No script, foreignObject, animation, feImage. */
const ELEMENTS = new Set([
  'svg', 'g', 'defs', 'symbol', 'use', 'path', 'rect', 'circle', 'ellipse', 'line', 'polyline', 'polygon',
  'linearGradient', 'radialGradient', 'stop', 'pattern', 'clipPath', 'mask', 'image', 'text', 'tspan', 'style',
  'filter', 'feGaussianBlur', 'feOffset', 'feBlend', 'feColorMatrix', 'feFlood', 'feComposite', 'feMerge',
  'feMergeNode', 'feDropShadow', 'feMorphology', 'feComponentTransfer', 'feFuncR', 'feFuncG', 'feFuncB', 'feFuncA',
]);

const ATTRIBUTES = new Set([
  'id', 'class', 'style', 'x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'dx', 'dy',
  'width', 'height', 'd', 'points', 'transform', 'viewBox', 'preserveAspectRatio', 'version', 'opacity', 'display',
  'visibility', 'color', 'fill', 'fill-opacity', 'fill-rule', 'stroke', 'stroke-width', 'stroke-linecap',
  'stroke-linejoin', 'stroke-miterlimit', 'stroke-dasharray', 'stroke-dashoffset', 'stroke-opacity', 'clip-path',
  'clip-rule', 'mask', 'filter', 'offset', 'stop-color', 'stop-opacity', 'gradientUnits', 'gradientTransform',
  'spreadMethod', 'patternUnits', 'patternContentUnits', 'patternTransform', 'clipPathUnits', 'maskUnits',
  'maskContentUnits', 'filterUnits', 'primitiveUnits', 'font-family', 'font-size', 'font-weight', 'font-style',
  'text-anchor', 'dominant-baseline', 'letter-spacing', 'vector-effect', 'paint-order', 'shape-rendering',
  'mix-blend-mode', 'isolation', 'in', 'in2', 'result', 'stdDeviation', 'mode', 'type', 'values', 'operator',
  'k1', 'k2', 'k3', 'k4', 'flood-color', 'flood-opacity', 'radius', 'tableValues', 'slope', 'intercept',
  'amplitude', 'exponent', 'color-interpolation-filters',
]);

/** Plain-number attributes whose absurd values only cost the rasterizer time and memory. */
const GEOMETRY = new Set(['x', 'y', 'x1', 'y1', 'x2', 'y2', 'cx', 'cy', 'r', 'rx', 'ry', 'fx', 'fy', 'fr', 'dx', 'dy', 'width', 'height', 'stroke-width']);

/** Media types a nested <image> may carry: raster only, so nothing can nest further. */
const IMAGE_HREF = /^data:image\/(?:png|jpeg|webp);base64,[a-z0-9+/=\s]*$/i;
const FRAGMENT = /^#[\w.:-]+$/;
const MAX_ELEMENTS = 20_000;
const MAX_DEPTH = 64;
/** Logos are drawn at a few hundred pixels at most; bigger declared sizes only cost memory. */
const MAX_SIDE = 2048;
const MAX_COORD = 1e6;

interface Node {
  name: string;
  attrs: Map<string, string>;
  children: (Node | string)[];
}

export class SvgRejected extends Error {}

/** Returns a clean, standalone SVG document, or throws SvgRejected with a short reason. */
export function sanitizeSvg(source: string): string {
  const root = parse(source);
  if (root.name !== 'svg') throw new SvgRejected('root element must be <svg>');
  clampRootSize(root);
  dropRecursiveUses(root);
  return serialize(root, true);
}

function parse(source: string): Node {
  const parser = new SaxesParser({ xmlns: true });
  const stack: (Node | null)[] = [];
  let root: Node | null = null;
  let count = 0;
  let failure: Error | null = null;
  parser.on('error', (err) => {
    failure ??= new SvgRejected(`not well-formed XML (${err.message.split('\n')[0]})`);
  });
  parser.on('doctype', () => {
    failure ??= new SvgRejected('DOCTYPE and entity declarations are not allowed');
  });
  parser.on('opentag', (tag) => {
    if (++count > MAX_ELEMENTS || stack.length > MAX_DEPTH) failure ??= new SvgRejected('too complex');
    const parent = stack.length ? stack[stack.length - 1] : undefined;
    // An element whose parent was dropped is dropped with it (null marks a dropped subtree).
    const node = parent === null ? null : cleanElement(tag);
    if (node && parent) parent.children.push(node);
    if (node && stack.length === 0) root = node;
    stack.push(node);
  });
  parser.on('closetag', () => {
    stack.pop();
  });
  const onText = (text: string) => {
    const parent = stack[stack.length - 1];
    if (parent && TEXT_PARENTS.has(parent.name)) parent.children.push(text);
  };
  parser.on('text', onText);
  parser.on('cdata', onText);
  try {
    parser.write(source).close();
  } catch (err) {
    failure ??= new SvgRejected(`not well-formed XML (${String(err).split('\n')[0]})`);
  }
  if (failure) throw failure;
  if (!root) throw new SvgRejected('no <svg> element');
  return root;
}

const TEXT_PARENTS = new Set(['text', 'tspan', 'style']);

function cleanElement(tag: SaxesTagNS): Node | null {
  if (tag.uri !== SVG_NS || !ELEMENTS.has(tag.local)) return null;
  const attrs = new Map<string, string>();
  for (const a of Object.values(tag.attributes)) {
    const value = cleanAttribute(tag.local, a.uri, a.local, a.value);
    if (value !== null) attrs.set(a.uri === XML_NS ? `xml:${a.local}` : a.local, value);
  }
  return { name: tag.local, attrs, children: [] };
}

function cleanAttribute(element: string, uri: string, name: string, value: string): string | null {
  if (uri === XML_NS) return name === 'space' && (value === 'preserve' || value === 'default') ? value : null;
  if (name === 'href' && (uri === '' || uri === XLINK_NS)) return cleanHref(element, value);
  if (uri !== '' || !ATTRIBUTES.has(name)) return null;
  if (name === 'style') return cleanCss(value);
  if (hasForeignUrl(value)) return null;
  if (name === 'viewBox') return cleanViewBox(value);
  if (name === 'stdDeviation' || name === 'radius') return clampNumbers(value, 100);
  if (GEOMETRY.has(name)) return clampNumbers(value, MAX_COORD);
  return value;
}

/** Links may point inside the logo, and images may be inline rasters; nothing else. */
function cleanHref(element: string, value: string): string | null {
  const v = value.trim();
  if (FRAGMENT.test(v) && element !== 'image') return v;
  if (element === 'image' && IMAGE_HREF.test(v)) return v.replace(/\s+/g, '');
  return null;
}

/** Any url(...) that is not a same-document fragment. */
function hasForeignUrl(value: string): boolean {
  const re = /url\s*\(\s*(['"]?)([^)'"]*)\1\s*\)/gi;
  for (let m = re.exec(value); m; m = re.exec(value)) if (!FRAGMENT.test((m[2] ?? '').trim())) return true;
  // A "url(" the pattern above could not read (odd quoting) is treated as foreign.
  return /url\s*\(/i.test(value.replace(re, ''));
}

/** CSS from a style attribute or <style>: dropped whole if it could load or run anything. */
export function cleanCss(css: string): string | null {
  if (/@import|@font-face|\\|expression\s*\(|javascript:|behavior\s*:|-moz-binding|<\//i.test(css)) return null;
  return hasForeignUrl(css) ? null : css;
}

function cleanViewBox(value: string): string | null {
  const parts = value.trim().split(/[\s,]+/).map(Number);
  if (parts.length !== 4 || parts.some((v) => !Number.isFinite(v) || Math.abs(v) > MAX_COORD)) return null;
  return (parts[2] ?? 0) > 0 && (parts[3] ?? 0) > 0 ? parts.join(' ') : null;
}

function clampNumbers(value: string, max: number): string {
  return value.replace(/-?[\d.]+(?:e[+-]?\d+)?/gi, (m) => {
    const v = Number(m);
    return Number.isFinite(v) ? String(Math.max(-max, Math.min(max, v))) : '0';
  });
}

/** Keeps the root's aspect ratio but caps its declared size (and gives it a viewBox so it still scales). */
function clampRootSize(root: Node): void {
  const w = plainLength(root.attrs.get('width'));
  const h = plainLength(root.attrs.get('height'));
  for (const key of ['width', 'height'] as const) {
    const v = root.attrs.get(key);
    if (v !== undefined && plainLength(v) === null && !/^\s*[\d.]+%\s*$/.test(v)) root.attrs.delete(key);
  }
  if (w === null || h === null) return;
  if (!root.attrs.has('viewBox') && w <= MAX_COORD && h <= MAX_COORD) root.attrs.set('viewBox', `0 0 ${w} ${h}`);
  const k = Math.min(1, MAX_SIDE / Math.max(w, h));
  root.attrs.set('width', String(Math.max(1, Math.round(w * k))));
  root.attrs.set('height', String(Math.max(1, Math.round(h * k))));
}

/** A unit-less or px length, else null. */
function plainLength(value: string | undefined): number | null {
  const m = value === undefined ? null : /^\s*([\d.]+(?:e[+-]?\d+)?)\s*(?:px)?\s*$/i.exec(value);
  const v = m ? Number(m[1]) : NaN;
  return Number.isFinite(v) && v > 0 ? v : null;
}

/**
 * <use> may not point at anything that itself contains a <use>: that closes the door
 * on "billion laughs" style reference bombs while keeping ordinary symbol reuse.
 */
function dropRecursiveUses(root: Node): void {
  const withUse = new Set<string>();
  const mark = (node: Node): boolean => {
    let has = node.name === 'use';
    for (const c of node.children) if (typeof c !== 'string' && mark(c)) has = true;
    const id = node.attrs.get('id');
    if (has && id) withUse.add(id);
    return has;
  };
  mark(root);
  const prune = (node: Node): void => {
    node.children = node.children.filter((c) => {
      if (typeof c === 'string' || c.name !== 'use') return true;
      const ref = c.attrs.get('href');
      return ref !== undefined && !withUse.has(ref.slice(1));
    });
    for (const c of node.children) if (typeof c !== 'string') prune(c);
  };
  prune(root);
}

function serialize(node: Node, isRoot = false): string {
  let out = `<${node.name}`;
  if (isRoot) out += ` xmlns="${SVG_NS}"`;
  for (const [k, v] of node.attrs) out += ` ${k}="${escapeXml(v)}"`;
  if (node.name === 'style') return out + `>${escapeXml(cleanCss(textOf(node)) ?? '')}</style>`;
  if (!node.children.length) return out + '/>';
  const inner = node.children.map((c) => (typeof c === 'string' ? escapeXml(c) : serialize(c))).join('');
  return out + `>${inner}</${node.name}>`;
}

function textOf(node: Node): string {
  return node.children.filter((c): c is string => typeof c === 'string').join('');
}

export function escapeXml(s: string): string {
  return s.replace(/[&<>"']/g, (c) => ESCAPES[c] ?? c);
}

const ESCAPES: Record<string, string> = { '&': '&amp;', '<': '&lt;', '>': '&gt;', '"': '&quot;', "'": '&#39;' };
