// The logo in the middle of the code. Its box is sized by the error-correction
// budget (product decision §3): the box covers at most logoSize × the level's
// recovery share of the modules, so every allowed logoSize stays scannable.
import { type ErrorCorrectionLevel, LIMITS, type PresetLogo, type QrDesign } from '../domain/design/design.ts';
import { parseLogoDataUrl } from '../domain/design/logo.ts';
import { num } from './path-builder.ts';
import { presetIcon } from './preset-icons.ts';

/** Share of codewords each level can restore. */
const RECOVERY: Record<ErrorCorrectionLevel, number> = { L: 0.07, M: 0.15, Q: 0.25, H: 0.3 };

/** The square of modules the logo may cover: start index and side, in modules. */
export interface LogoBox {
  start: number;
  side: number;
}

/**
 * Largest centred odd square within the budget. The sanitizer bounds a logo's cost at the
 * largest size this box can take (MAX_LOGO_DRAW_PX in svg-sanitizer.ts): growing the box
 * means raising that bound too (a test checks the two agree). It also stays clear of the rows and
 * columns next to the eyes (separators, format information), which only matters for
 * the smallest versions.
 */
export function logoBox(size: number, level: ErrorCorrectionLevel, logoSize: number): LogoBox {
  const budget = logoSize * RECOVERY[level] * size * size;
  let side = Math.floor(Math.sqrt(budget));
  side = Math.min(side, size - 18);
  if (side % 2 === 0) side -= 1;
  side = Math.max(side, 1);
  return { start: (size - side) / 2, side };
}

/**
 * The widest a logo is ever drawn in an image `width` pixels wide: the largest logoSize
 * at the level with the most recovery, as if the code filled the whole width.
 */
export function largestLogoSide(width: number): number {
  return Math.ceil(Math.sqrt(LIMITS.logoSize.max * RECOVERY.H) * width);
}

/**
 * The logo alone, `side` pixels square, as the code draws it: what a trial render
 * costs tells whether the logo can be drawn within the render budget at any size.
 */
export function logoTrialSvg(dataUrl: string, side: number): string {
  const href = sanitizedLogo(dataUrl);
  return `<svg xmlns="http://www.w3.org/2000/svg" width="${side}" height="${side}" viewBox="0 0 ${side} ${side}"><image width="${side}" height="${side}" preserveAspectRatio="xMidYMid meet" href="${href}"/></svg>`;
}

export function hasLogo(design: QrDesign): boolean {
  return design.customLogoUrl !== null || design.presetLogo !== 'none';
}

export interface LogoContext {
  box: LogoBox;
  /** Margin in modules (logoMargin is pixels at a 1000 px render). */
  margin: number;
  /** Fill attributes of the code's dots, reused for the preset badge. */
  dotFill: string;
  /** Colour of the icon drawn on the badge. */
  iconColor: string;
}

/** Logo markup in module coordinates. */
export function logoMarkup(design: QrDesign, ctx: LogoContext): string {
  const { start, side } = ctx.box;
  // Margin never eats more than 70 % of the box: the logo stays visible.
  const inner = Math.max(side - 2 * ctx.margin, side * 0.3);
  const at = start + (side - inner) / 2;
  if (design.customLogoUrl !== null) {
    const href = sanitizedLogo(design.customLogoUrl);
    return `<image x="${num(at)}" y="${num(at)}" width="${num(inner)}" height="${num(inner)}" preserveAspectRatio="xMidYMid meet" href="${href}"/>`;
  }
  return presetMarkup(design.presetLogo, at, inner, ctx);
}

function presetMarkup(name: PresetLogo, at: number, side: number, ctx: LogoContext): string {
  if (name === 'none') return '';
  const icon = presetIcon(name);
  const r = side / 2;
  const c = at + r;
  const scale = (side * 0.62) / 24;
  const offset = c - 12 * scale;
  const badge = `<circle cx="${num(c)}" cy="${num(c)}" r="${num(r)}"${ctx.dotFill}/>`;
  const transform = `translate(${num(offset)} ${num(offset)}) scale(${num(scale)})`;
  const stroke = `<path d="${icon.stroke}" fill="none" stroke="${ctx.iconColor}" stroke-width="2" stroke-linecap="round" stroke-linejoin="round"/>`;
  const fill = icon.fill ? `<path d="${icon.fill}" fill="${ctx.iconColor}"/>` : '';
  return `${badge}<g transform="${transform}">${stroke}${fill}</g>`;
}

/**
 * Re-checks a stored logo before drawing it (defence in depth: the design may not
 * have come through the HTTP validation). Cached: the same logo is drawn again and again.
 */
const logoCache = new Map<string, string>();
const LOGO_CACHE_LIMIT = 32;

function sanitizedLogo(dataUrl: string): string {
  let safe = logoCache.get(dataUrl);
  if (safe === undefined) {
    safe = parseLogoDataUrl('customLogoUrl', dataUrl).dataUrl;
    if (logoCache.size >= LOGO_CACHE_LIMIT) logoCache.delete(logoCache.keys().next().value as string);
    logoCache.set(dataUrl, safe);
  }
  return safe;
}
