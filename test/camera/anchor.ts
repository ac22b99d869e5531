// The anchor: the same design drawn by qr-code-styling, the library whose options our
// design mirrors. In Node it draws SVG into a jsdom window; jsdom loads no images
// without the `canvas` package, so a tiny Image stand-in reports the logo's size from
// its data URL (all qr-code-styling needs to place it). It has no frames: a framed
// design's anchor is the code alone. Preset logos are drawn as the custom logo.
import { createRequire } from 'node:module';
import { imageSize } from 'image-size';
import { JSDOM, type ConstructorOptions } from 'jsdom';
import type { QrDesign } from '../../src/domain/design/design.ts';
import { createQrMatrix, QUIET_ZONE } from '../../src/render/index.ts';
import { LOGO_SVG_DATA_URL } from '../render/fixtures.ts';

interface StylingOptions {
  type: 'svg';
  jsdom: typeof JSDOM;
  width: number;
  height: number;
  margin: number;
  data: string;
  image?: string;
  qrOptions: { errorCorrectionLevel: QrDesign['errorCorrectionLevel'] };
  imageOptions: { hideBackgroundDots: boolean; imageSize: number; margin: number };
  dotsOptions: { type: string; color?: string; gradient?: StylingGradient };
  cornersSquareOptions: { type: string; color?: string; gradient?: StylingGradient };
  cornersDotOptions: { type: string; color?: string; gradient?: StylingGradient };
  backgroundOptions: { color: string };
}
interface StylingGradient {
  type: 'linear' | 'radial';
  rotation: number;
  colorStops: { offset: number; color: string }[];
}
interface StylingInstance {
  getRawData(ext: 'svg'): Promise<Buffer | null>;
}
type StylingClass = new (options: StylingOptions) => StylingInstance;

/** A jsdom whose Image "loads" data URLs by reading their size, as a browser would. */
class AnchorDom extends JSDOM {
  constructor(html?: string, options?: ConstructorOptions) {
    super(html, { ...options, resources: undefined });
    const win = this.window;
    class DataUrlImage {
      width = 0;
      height = 0;
      onload: (() => void) | null = null;
      crossOrigin = '';
      set src(url: string) {
        const bytes = Buffer.from(url.slice(url.indexOf(',') + 1), 'base64');
        const size = imageSize(bytes);
        this.width = size.width;
        this.height = size.height;
        setImmediate(() => this.onload?.());
      }
    }
    Object.defineProperty(win, 'Image', { value: DataUrlImage });
  }
}

let Styling: StylingClass | null = null;

function stylingClass(): StylingClass {
  // The package's Node build is CommonJS and untyped (its types import `canvas`, which we do not install).
  Styling ??= (createRequire(import.meta.url)('qr-code-styling/lib/qr-code-styling.common.js') as { QRCodeStyling: StylingClass })
    .QRCodeStyling;
  return Styling;
}

/** Where qr-code-styling puts the code's first module in an image `width` wide: whole-pixel modules, the margin rounded down. */
export function anchorOrigin(n: number, width: number): number {
  return Math.floor((width - n * Math.floor(width / (n + 2 * QUIET_ZONE))) / 2);
}

/** qr-code-styling's SVG of `design` (code only), `width` pixels square, same quiet zone as ours. */
export async function anchorSvg(data: string, design: QrDesign, width: number): Promise<string> {
  const n = createQrMatrix(data, design.errorCorrectionLevel).size;
  const fill = paint(design);
  const eyeFill = design.customEyeColors ? { color: design.eyeColor } : fill;
  const logo = design.customLogoUrl ?? (design.presetLogo !== 'none' ? LOGO_SVG_DATA_URL : undefined);
  const Cls = stylingClass();
  const qr = new Cls({
    type: 'svg',
    jsdom: AnchorDom,
    width,
    height: width,
    margin: anchorOrigin(n, width),
    data,
    ...(logo ? { image: logo } : {}),
    qrOptions: { errorCorrectionLevel: design.errorCorrectionLevel },
    imageOptions: { hideBackgroundDots: design.hideDotsBehindLogo, imageSize: design.logoSize, margin: (design.logoMargin * width) / 1000 },
    dotsOptions: { type: design.dotsStyle, ...fill },
    cornersSquareOptions: { type: design.cornerSquare, ...eyeFill },
    cornersDotOptions: { type: design.cornerDot, ...eyeFill },
    backgroundOptions: { color: design.bgTransparent ? '#ffffff' : design.bgColor },
  });
  const svg = await qr.getRawData('svg');
  if (!svg) throw new Error('qr-code-styling drew nothing');
  // It writes url('#id'); resvg (our rasterizer) reads only the unquoted form, which means the same.
  return svg.toString('utf8').replace(/url\('(#[^')]+)'\)/g, 'url($1)');
}

function paint(design: QrDesign): { color: string } | { gradient: StylingGradient } {
  if (!design.isGradient) return { color: design.color1 };
  return {
    gradient: {
      type: design.gradientType,
      rotation: (design.gradientRotation * Math.PI) / 180,
      colorStops: [
        { offset: 0, color: design.color1 },
        { offset: 1, color: design.color2 },
      ],
    },
  };
}
