// Design → print-ready PDF: the SVG the renderer draws, replayed as PDF vector operations
// (pdfkit), on a page exactly the requested width in millimetres. Our SVG is a known small
// subset (rect, circle, path, g, image, and linear/radial gradients in user space), so it
// is drawn element by element rather than through a general SVG library.
// Node only (pdfkit, resvg): the browser preview never draws PDF.
import { Resvg } from '@resvg/resvg-js';
import PDFDocument from 'pdfkit';
import { SaxesParser } from 'saxes';
import type { QrDesign } from '../domain/design/design.ts';
import { renderSvg } from './render-svg.ts';

const PT_PER_MM = 72 / 25.4;
/** Logos that are not PNG or JPEG (SVG, WebP) are placed as images drawn at this resolution. */
const LOGO_DPI = 600;
const LOGO_MAX_PX = 3000;

export function renderPdf(data: string, design: QrDesign, widthMm: number): Promise<Buffer> {
  // The drawing of image.svg (at the design's resolution), only scaled to the page.
  return svgToPdf(renderSvg(data, design), widthMm);
}

interface Node {
  name: string;
  attrs: Record<string, string>;
  children: Node[];
}

type Doc = InstanceType<typeof PDFDocument>;

export function svgToPdf(svg: string, widthMm: number): Promise<Buffer> {
  const root = parse(svg);
  const width = Number(root.attrs.width);
  const height = Number(root.attrs.height);
  const pageW = widthMm * PT_PER_MM;
  const k = pageW / width;
  const doc = new PDFDocument({ size: [pageW, height * k], margin: 0, compress: true, info: { Producer: 'qrtrack', Creator: 'qrtrack' } });
  // pdfkit finishes a PNG with transparency asynchronously (it inflates the pixels to
  // split off the alpha), so the file is complete only at the stream's end.
  const chunks: Buffer[] = [];
  const done = new Promise<Buffer>((resolve, reject) => {
    doc.on('data', (c: Buffer) => chunks.push(c));
    doc.on('end', () => resolve(Buffer.concat(chunks)));
    doc.on('error', reject);
  });
  const gradients = new Map<string, Node>();
  for (const n of walk(root)) if (n.attrs.id && /Gradient$/.test(n.name)) gradients.set(n.attrs.id, n);
  doc.transform(k, 0, 0, k, 0, 0);
  const ctx: DrawContext = { doc, gradients, scale: k };
  for (const child of root.children) draw(child, ctx);
  doc.end();
  return done;
}

interface DrawContext {
  doc: Doc;
  gradients: Map<string, Node>;
  /** Points per user unit here (for the resolution of rasterized logos). */
  scale: number;
}

function draw(node: Node, ctx: DrawContext): void {
  if (node.name === 'defs' || /Gradient$/.test(node.name)) return;
  const { doc } = ctx;
  doc.save();
  const inner = { ...ctx, scale: ctx.scale * applyTransform(doc, node.attrs.transform) };
  const a = node.attrs;
  const n = (name: string) => Number(a[name] ?? 0);
  switch (node.name) {
    case 'g':
      for (const child of node.children) draw(child, inner);
      break;
    case 'rect':
      doc.rect(n('x'), n('y'), n('width'), n('height'));
      paint(node, inner);
      break;
    case 'circle':
      doc.circle(n('cx'), n('cy'), n('r'));
      paint(node, inner);
      break;
    case 'path':
      if (a.d) {
        doc.path(a.d);
        paint(node, inner);
      }
      break;
    case 'image':
      drawImage(node, inner);
      break;
    default:
      throw new Error(`svgToPdf: unexpected element <${node.name}>`);
  }
  doc.restore();
}

/** Applies an SVG transform list; answers its scale factor. */
function applyTransform(doc: Doc, transform: string | undefined): number {
  if (!transform) return 1;
  let scale = 1;
  for (const [, op, args] of transform.matchAll(/(\w+)\s*\(([^)]*)\)/g)) {
    const v = (args ?? '')
      .split(/[\s,]+/)
      .filter(Boolean)
      .map(Number);
    const [a = 0, b, c, d, e = 0, f = 0] = v;
    switch (op) {
      case 'translate':
        doc.translate(a, b ?? 0);
        break;
      case 'scale':
        doc.scale(a, b ?? a);
        scale *= Math.sqrt(Math.abs(a * (b ?? a)));
        break;
      case 'rotate':
        doc.rotate(a, b !== undefined ? { origin: [b, c ?? 0] } : undefined);
        break;
      case 'matrix':
        doc.transform(a, b ?? 0, c ?? 0, d ?? 1, e, f);
        scale *= Math.sqrt(Math.abs(a * (d ?? 1) - (b ?? 0) * (c ?? 0)));
        break;
      default:
        throw new Error(`svgToPdf: unexpected transform ${op}`);
    }
  }
  return scale;
}

function paint(node: Node, ctx: DrawContext): void {
  const { doc } = ctx;
  const a = node.attrs;
  const fill = a.fill === 'none' ? null : fillOf(a.fill ?? '#000000', ctx);
  const rule = a['fill-rule'] === 'evenodd' ? 'even-odd' : 'non-zero';
  if (a['fill-opacity']) doc.fillOpacity(Number(a['fill-opacity']));
  const stroke = a.stroke && a.stroke !== 'none' ? a.stroke : null;
  if (stroke) {
    doc.lineWidth(Number(a['stroke-width'] ?? 1));
    if (a['stroke-linecap']) doc.lineCap(a['stroke-linecap'] as 'butt' | 'round' | 'square');
    if (a['stroke-linejoin']) doc.lineJoin(a['stroke-linejoin'] as 'miter' | 'round' | 'bevel');
    if (a['stroke-opacity']) doc.strokeOpacity(Number(a['stroke-opacity']));
  }
  if (fill && stroke) doc.fillAndStroke(fill, stroke, rule);
  else if (fill) doc.fill(fill, rule);
  else if (stroke) doc.stroke(stroke);
}

type Paint = string | ReturnType<Doc['linearGradient']> | ReturnType<Doc['radialGradient']>;

/** A colour, or a gradient made in the current user space (our gradients are userSpaceOnUse). */
function fillOf(value: string, ctx: DrawContext): Paint {
  const ref = /^url\(#([^)]+)\)$/.exec(value);
  if (!ref) return value;
  const g = ctx.gradients.get(ref[1] as string);
  if (!g) return '#000000';
  const n = (name: string) => Number(g.attrs[name] ?? 0);
  const gradient =
    g.name === 'radialGradient'
      ? ctx.doc.radialGradient(n('cx'), n('cy'), 0, n('cx'), n('cy'), n('r'))
      : ctx.doc.linearGradient(n('x1'), n('y1'), n('x2'), n('y2'));
  for (const s of g.children.filter((c) => c.name === 'stop')) {
    gradient.stop(Number(s.attrs.offset ?? 0), s.attrs['stop-color'] ?? '#000000', Number(s.attrs['stop-opacity'] ?? 1));
  }
  return gradient;
}

/** A logo: PNG and JPEG are embedded as they are; SVG and WebP are drawn at print resolution first. */
function drawImage(node: Node, ctx: DrawContext): void {
  const a = node.attrs;
  const href = a.href ?? a['xlink:href'] ?? '';
  const m = /^data:([^;,]+)(;base64)?,(.*)$/s.exec(href);
  if (!m) return;
  const [x, y, w, h] = ['x', 'y', 'width', 'height'].map((k) => Number(a[k] ?? 0)) as [number, number, number, number];
  const mediaType = m[1] as string;
  if ((mediaType === 'image/png' || mediaType === 'image/jpeg') && m[2]) {
    ctx.doc.image(Buffer.from(m[3] as string, 'base64'), x, y, { fit: [w, h], align: 'center', valign: 'center' });
    return;
  }
  const px = Math.min(LOGO_MAX_PX, Math.max(1, Math.ceil(((w * ctx.scale) / 72) * LOGO_DPI)));
  const wrapper = `<svg xmlns="http://www.w3.org/2000/svg" width="${px}" height="${px}" viewBox="0 0 ${px} ${px}"><image width="${px}" height="${px}" preserveAspectRatio="xMidYMid meet" href="${escapeAttr(href)}"/></svg>`;
  const png = new Resvg(wrapper, { font: { loadSystemFonts: false }, logLevel: 'off' }).render().asPng();
  ctx.doc.image(png, x, y, { width: w, height: h });
}

function escapeAttr(v: string): string {
  return v.replace(/&/g, '&amp;').replace(/"/g, '&quot;').replace(/</g, '&lt;');
}

function parse(svg: string): Node {
  const parser = new SaxesParser();
  const stack: Node[] = [];
  let root: Node | null = null;
  parser.on('opentag', (tag) => {
    const node: Node = { name: tag.name, attrs: { ...(tag.attributes as Record<string, string>) }, children: [] };
    stack[stack.length - 1]?.children.push(node);
    stack.push(node);
    root ??= node;
  });
  parser.on('closetag', () => stack.pop());
  parser.write(svg).close();
  if (!root) throw new Error('svgToPdf: empty SVG');
  return root;
}

function* walk(node: Node): Generator<Node> {
  yield node;
  for (const c of node.children) yield* walk(c);
}
