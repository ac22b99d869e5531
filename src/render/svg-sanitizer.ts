// Sanitizes user SVG logos by re-building them from an allow-list: the XML is parsed
// (saxes, strict and namespace-aware), every element and attribute not known to be
// inert is dropped, and the tree is serialized afresh. Nothing of the input's text
// reaches the output unparsed, so tricks of encoding or comments cannot slip through.
import { SaxesParser, type SaxesTagNS } from 'saxes';
import { decodeBase64 } from '../domain/base64.ts';
import { checkRasterSize } from '../domain/raster-size.ts';
import { cleanDeclarations, cleanStyleSheet, cleanValue, type Rule, serializeDeclarations, serializeStyleSheet } from './svg-css.ts';
import { clampNumbers, geometryNumbers, isPercentage, numberList, plainLength, transformScale } from './svg-numbers.ts';
import { capFilters, checkReferences } from './svg-references.ts';
import { type SvgNode as Node, SvgRejected } from './svg-tree.ts';

export { SvgRejected } from './svg-tree.ts';

const SVG_NS = 'http://www.w3.org/2000/svg';
const XLINK_NS = 'http://www.w3.org/1999/xlink';
const XML_NS = 'http://www.w3.org/XML/1998/namespace';

/** Shapes, structure, paint servers, clipping, text and plain filters. No script, foreignObject, animation, feImage. */
const ELEMENTS = new Set([
  'svg',
  'g',
  'defs',
  'symbol',
  'use',
  'path',
  'rect',
  'circle',
  'ellipse',
  'line',
  'polyline',
  'polygon',
  'linearGradient',
  'radialGradient',
  'stop',
  'pattern',
  'clipPath',
  'mask',
  'image',
  'text',
  'tspan',
  'style',
  'filter',
  'feGaussianBlur',
  'feOffset',
  'feBlend',
  'feColorMatrix',
  'feFlood',
  'feComposite',
  'feMerge',
  'feMergeNode',
  'feDropShadow',
  'feMorphology',
  'feComponentTransfer',
  'feFuncR',
  'feFuncG',
  'feFuncB',
  'feFuncA',
]);

const ATTRIBUTES = new Set([
  'id',
  'class',
  'style',
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'fr',
  'dx',
  'dy',
  'width',
  'height',
  'd',
  'points',
  'transform',
  'viewBox',
  'preserveAspectRatio',
  'version',
  'opacity',
  'display',
  'visibility',
  'color',
  'fill',
  'fill-opacity',
  'fill-rule',
  'stroke',
  'stroke-width',
  'stroke-linecap',
  'stroke-linejoin',
  'stroke-miterlimit',
  'stroke-dasharray',
  'stroke-dashoffset',
  'stroke-opacity',
  'clip-path',
  'clip-rule',
  'mask',
  'filter',
  'offset',
  'stop-color',
  'stop-opacity',
  'gradientUnits',
  'gradientTransform',
  'spreadMethod',
  'patternUnits',
  'patternContentUnits',
  'patternTransform',
  'clipPathUnits',
  'maskUnits',
  'maskContentUnits',
  'filterUnits',
  'primitiveUnits',
  'font-family',
  'font-size',
  'font-weight',
  'font-style',
  'text-anchor',
  'dominant-baseline',
  'letter-spacing',
  'vector-effect',
  'paint-order',
  'shape-rendering',
  'mix-blend-mode',
  'isolation',
  'in',
  'in2',
  'result',
  'stdDeviation',
  'mode',
  'type',
  'values',
  'operator',
  'k1',
  'k2',
  'k3',
  'k4',
  'flood-color',
  'flood-opacity',
  'radius',
  'tableValues',
  'slope',
  'intercept',
  'amplitude',
  'exponent',
  'color-interpolation-filters',
]);

/** Plain-number attributes whose absurd values only cost the rasterizer time and memory. */
const GEOMETRY = new Set([
  'x',
  'y',
  'x1',
  'y1',
  'x2',
  'y2',
  'cx',
  'cy',
  'r',
  'rx',
  'ry',
  'fx',
  'fy',
  'fr',
  'dx',
  'dy',
  'width',
  'height',
  'stroke-width',
]);

/** Media types a nested <image> may carry: raster only, so nothing can nest further. */
const IMAGE_TYPES = ['png', 'jpeg', 'webp'];
const MAX_ELEMENTS = 20_000;
const MAX_DEPTH = 64;
/** Logos are drawn at a few hundred pixels at most; bigger declared sizes only cost memory. */
const MAX_SIDE = 2048;
const MAX_COORD = 1e6;
/**
 * The most device pixels a logo is ever drawn across: the logo box covers at most
 * logoSize 0.5 × 30 % (level H) of the modules, so its side is at most √0.15 ≈ 0.387 of
 * the code's width, at most 4096 px (the renderer's own bound; the API stops at 2500):
 * 1,586 px. Rounded up for margin (a test pins it against logoBox for every version).
 */
export const MAX_LOGO_DRAW_PX = 2048;
/** Attributes whose values are transform lists; checked by their own parser. */
const TRANSFORMS = new Set(['transform', 'gradientTransform', 'patternTransform']);
/** Presentation attributes that may name a paint server, mask, clip path or filter. */
const URL_ATTRIBUTES = new Set(['fill', 'stroke', 'clip-path', 'mask', 'filter']);

/** Returns a clean, standalone SVG document, or throws SvgRejected with a short reason. */
export function sanitizeSvg(source: string): string {
  const root = parse(source);
  if (root.name !== 'svg') throw new SvgRejected('root element must be <svg>');
  clampRootSize(root);
  const sheet = styleSheet(root);
  capFilters(checkReferences(root, sheet, MAX_LOGO_DRAW_PX));
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
    if (++count > MAX_ELEMENTS) failure ??= new SvgRejected(`too complex (more than ${MAX_ELEMENTS} elements)`);
    if (stack.length > MAX_DEPTH) failure ??= new SvgRejected(`too complex (elements nested deeper than ${MAX_DEPTH})`);
    const parent = stack.length ? stack[stack.length - 1] : undefined;
    // An element whose parent was dropped is dropped with it (null marks a dropped subtree).
    let node: Node | null = null;
    if (parent !== null && failure === null) {
      try {
        node = cleanElement(tag);
      } catch (err) {
        failure ??= err as Error;
      }
    }
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
  if (name === 'style') {
    const decls = serializeDeclarations(cleanDeclarations(value));
    return decls === '' ? null : decls;
  }
  if (TRANSFORMS.has(name)) return transformScale(value) === null ? null : value;
  // A function anywhere else must be one the CSS allow-list knows (url(#id), rgb(), hsl()).
  if (URL_ATTRIBUTES.has(name) || value.includes('(')) return cleanValue(value)?.text ?? null;
  if (name === 'viewBox') return cleanViewBox(value);
  if (name === 'stdDeviation' || name === 'radius') return clampNumbers(value, 100);
  // Units other than px and % multiply the number past its clamp (1e6in); a logo has no need of them.
  if (GEOMETRY.has(name)) return geometryNumbers(value) === null ? null : clampNumbers(value, MAX_COORD);
  return value;
}

/** Links may point inside the logo, and images may be inline rasters of a bounded size; nothing else. */
function cleanHref(element: string, value: string): string | null {
  const v = value.trim();
  if (element !== 'image') return isFragment(v) ? v : null;
  const comma = v.indexOf(',');
  const head = v.slice(0, Math.max(comma, 0)).toLowerCase();
  const type = IMAGE_TYPES.find((t) => head === `data:image/${t};base64`);
  if (type === undefined) return null;
  const payload = v.slice(comma + 1).replace(/\s+/g, '');
  if (!/^[A-Za-z0-9+/]*={0,2}$/.test(payload)) return null;
  const size = checkRasterSize(decodeBase64(payload));
  if (typeof size === 'string') throw new SvgRejected(`an embedded image: ${size}`);
  return `data:image/${type};base64,${payload}`;
}

function isFragment(v: string): boolean {
  if (v.length < 2 || v[0] !== '#') return false;
  for (let i = 1; i < v.length; i++) if (!/[\w.:-]/.test(v[i]!)) return false;
  return true;
}

/** All <style> elements' rules, cleaned; each element keeps only its own cleaned rules. */
function styleSheet(root: Node): Rule[] {
  const all: Rule[] = [];
  const visit = (node: Node): void => {
    if (node.name === 'style') {
      const rules = cleanStyleSheet(textOf(node));
      all.push(...rules);
      node.children = [serializeStyleSheet(rules)];
      return;
    }
    for (const c of node.children) if (typeof c !== 'string') visit(c);
  };
  visit(root);
  return all;
}

function cleanViewBox(value: string): string | null {
  const parts = numberList(value);
  if (parts?.length !== 4 || parts.some((v) => !Number.isFinite(v) || Math.abs(v) > MAX_COORD)) return null;
  return (parts[2] ?? 0) > 0 && (parts[3] ?? 0) > 0 ? parts.join(' ') : null;
}

/** Keeps the root's aspect ratio but caps its declared size (and gives it a viewBox so it still scales). */
function clampRootSize(root: Node): void {
  const w = plainLength(root.attrs.get('width'));
  const h = plainLength(root.attrs.get('height'));
  for (const key of ['width', 'height'] as const) {
    const v = root.attrs.get(key);
    if (v !== undefined && plainLength(v) === null && !isPercentage(v)) root.attrs.delete(key);
  }
  if (w === null || h === null) return;
  if (!root.attrs.has('viewBox') && w <= MAX_COORD && h <= MAX_COORD) root.attrs.set('viewBox', `0 0 ${w} ${h}`);
  const k = Math.min(1, MAX_SIDE / Math.max(w, h));
  root.attrs.set('width', String(Math.max(1, Math.round(w * k))));
  root.attrs.set('height', String(Math.max(1, Math.round(h * k))));
}

function serialize(node: Node, isRoot = false): string {
  let out = `<${node.name}`;
  if (isRoot) out += ` xmlns="${SVG_NS}"`;
  for (const [k, v] of node.attrs) out += ` ${k}="${escapeXml(v)}"`;
  if (node.name === 'style') return out + `>${escapeXml(textOf(node))}</style>`;
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
