// Logos an attacker would send as `customLogoUrl` (issue 11), each small on the wire and
// each, before the hardening, able to stall or exhaust the process. Built here once so the
// unit, HTTP and fuzz tests all try the same ones. Every export is a complete data: URL.
import zlib from 'node:zlib';

const NS = 'xmlns="http://www.w3.org/2000/svg"';

export const svgDataUrl = (svg: string): string => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;
const rasterDataUrl = (type: string, bytes: Buffer): string => `data:${type};base64,${bytes.toString('base64')}`;

/** ~250 bytes: a tiny viewBox scales a "capped" radius of 100 units up to thousands of pixels. */
export const FILTER_MORPHOLOGY_SVG = `<svg ${NS} viewBox="0 0 10 10"><filter id="f"><feMorphology operator="dilate" radius="100"/></filter><rect width="10" height="10" fill="#08f" filter="url(#f)"/></svg>`;

/** The same cost through a transform instead of the viewBox. */
export const FILTER_TRANSFORM_SVG = `<svg ${NS} viewBox="0 0 1000 1000"><filter id="f" filterUnits="userSpaceOnUse" x="-1e6" y="-1e6" width="2e6" height="2e6"><feMorphology radius="50"/></filter><g transform="scale(1000)"><rect width="1" height="1" filter="url(#f)"/></g></svg>`;

/** Hundreds of cheap primitives in one filter, and many filters. */
export const FILTER_CHAIN_SVG = (() => {
  const blur = '<feGaussianBlur stdDeviation="3"/>'.repeat(300);
  const filters = Array.from({ length: 10 }, (_, i) => `<filter id="f${i}">${blur}</filter>`).join('');
  const rects = Array.from({ length: 100 }, (_, i) => `<rect width="100" height="100" filter="url(#f${i % 10})"/>`).join('');
  return `<svg ${NS} viewBox="0 0 100 100">${filters}${rects}</svg>`;
})();

/**
 * Paint servers (or masks) nested `depth` deep, each drawing `fan` shapes that use the next:
 * fan^depth shapes from a few hundred bytes of input.
 */
function nestedBomb(kind: 'pattern' | 'mask' | 'clipPath', depth: number, fan: number): string {
  const defs: string[] = [];
  for (let level = 0; level < depth; level++) {
    const ref = level + 1 < depth ? `url(#p${level + 1})` : '#000';
    const attr =
      level + 1 >= depth
        ? `fill="${ref}"`
        : kind === 'pattern'
          ? `fill="${ref}"`
          : kind === 'mask'
            ? `mask="${ref}"`
            : `clip-path="${ref}"`;
    const shapes = Array.from({ length: fan }, (_, i) => `<rect x="${i}" width="1" height="10" ${attr}/>`).join('');
    const open =
      kind === 'pattern' ? `<pattern id="p${level}" width="10" height="10" patternUnits="userSpaceOnUse">` : `<${kind} id="p${level}">`;
    defs.push(`${open}${shapes}</${kind}>`);
  }
  const use = kind === 'pattern' ? 'fill="url(#p0)"' : kind === 'mask' ? 'mask="url(#p0)"' : 'clip-path="url(#p0)"';
  return `<svg ${NS} viewBox="0 0 10 10"><defs>${defs.join('')}</defs><rect width="10" height="10" ${use}/></svg>`;
}

export const PATTERN_BOMB_SVG = nestedBomb('pattern', 8, 10);
export const MASK_BOMB_SVG = nestedBomb('mask', 8, 10);
export const CLIP_BOMB_SVG = nestedBomb('clipPath', 8, 10);

/** The same nesting hidden in CSS, which the <use>-only check never saw. */
export const CSS_PATTERN_BOMB_SVG = PATTERN_BOMB_SVG.replace(/fill="url\(#(p\d)\)"/g, 'style="fill:url(#$1)"');

/**
 * A square from -10^6 to 0 in a 10-unit viewBox: at 2500 px the rasterizer (tiny-skia 0.10)
 * panics and aborts the whole process. Coordinates were clamped to ±10^6 units, not pixels.
 */
export const HUGE_COORDINATES_SVG = `<svg ${NS} viewBox="0 0 10 10"><rect x="-1000000" y="-1000000" width="1000000" height="1000000"/></svg>`;
/** The same reach through a path and a translate, which no single-number clamp sees. */
export const FAR_PATH_SVG = `<svg ${NS} viewBox="0 0 10 10"><g transform="translate(-900 -900)"><path d="M0 0${' l-1000 0'.repeat(500)} v-1 z"/></g></svg>`;

/** A reference cycle through paint servers and masks. */
export const REFERENCE_CYCLE_SVG = `<svg ${NS}><pattern id="a" width="1" height="1"><rect width="1" height="1" mask="url(#b)"/></pattern><mask id="b"><rect width="1" height="1" fill="url(#a)"/></mask><rect width="1" height="1" fill="url(#a)"/></svg>`;

/** A minimal baseline JPEG (one grey component) whose frame header claims `width`×`height`. */
export function jpegClaiming(width: number, height: number, opts: { progressive?: boolean; extraFrame?: [number, number] } = {}): Buffer {
  const segment = (marker: number, body: number[]) => [0xff, marker, (body.length + 2) >> 8, (body.length + 2) & 0xff, ...body];
  const frame = (w: number, h: number) => [8, h >> 8, h & 0xff, w >> 8, w & 0xff, 1, 1, 0x11, 0];
  const huffman = (tableClass: number) => [(tableClass << 4) | 0, 1, ...new Array<number>(15).fill(0), 0];
  const bytes = [
    0xff,
    0xd8,
    ...segment(0xdb, [0, ...new Array<number>(64).fill(1)]),
    ...segment(opts.progressive ? 0xc2 : 0xc0, frame(width, height)),
    ...(opts.extraFrame ? segment(0xc0, frame(...opts.extraFrame)) : []),
    ...segment(0xc4, huffman(0)),
    ...segment(0xc4, huffman(1)),
    ...segment(0xda, [1, 1, 0, 0, 63, 0]),
    // Every block is "DC 0, end of block": two zero bits; the rest is left to the decoder's imagination.
    ...new Array<number>(242).fill(0),
    0xff,
    0xd9,
  ];
  return Buffer.from(bytes);
}

/** 382 bytes claiming 65500×65500 (4.3 gigapixels). */
export const JPEG_BOMB = rasterDataUrl('image/jpeg', jpegClaiming(65500, 65500));
export const JPEG_PROGRESSIVE_BOMB = rasterDataUrl('image/jpeg', jpegClaiming(65500, 65500, { progressive: true }));
/** A small first frame followed by a huge second one. */
export const JPEG_SECOND_FRAME_BOMB = rasterDataUrl('image/jpeg', jpegClaiming(16, 16, { extraFrame: [65500, 65500] }));

function crc32(bytes: Buffer): number {
  let c = ~0;
  for (const b of bytes) {
    c ^= b;
    for (let k = 0; k < 8; k++) c = (c >>> 1) ^ (0xedb88320 & -(c & 1));
  }
  return ~c >>> 0;
}

function pngChunk(type: string, data: Buffer): Buffer {
  const head = Buffer.alloc(8);
  head.writeUInt32BE(data.length, 0);
  head.write(type, 4, 'latin1');
  const crc = Buffer.alloc(4);
  crc.writeUInt32BE(crc32(Buffer.concat([head.subarray(4), data])), 0);
  return Buffer.concat([head, data, crc]);
}

/** A one-bit grey PNG of `width`×`height`, all black; `rows` limits how many rows the data really holds. */
export function pngClaiming(width: number, height: number, rows = height): Buffer {
  const ihdr = Buffer.alloc(13);
  ihdr.writeUInt32BE(width, 0);
  ihdr.writeUInt32BE(height, 4);
  ihdr[8] = 1; // bit depth
  ihdr[9] = 0; // greyscale
  const signature = Buffer.from([0x89, 0x50, 0x4e, 0x47, 0x0d, 0x0a, 0x1a, 0x0a]);
  return Buffer.concat([
    signature,
    pngChunk('IHDR', ihdr),
    pngChunk('IDAT', zeroStream((1 + Math.ceil(width / 8)) * rows)),
    pngChunk('IEND', Buffer.alloc(0)),
  ]);
}

/**
 * A zlib stream of `length` zero bytes, built from one compressed block of at most 4 MiB
 * repeated (each block compressed on its own, so they concatenate), so the 112 MB of a
 * 30000×30000 image are never held in memory.
 */
function zeroStream(length: number): Buffer {
  const CHUNK = 4 * 1024 * 1024;
  const blocks: Buffer[] = [Buffer.from([0x78, 0xda])];
  const full = zlib.deflateRawSync(Buffer.alloc(Math.min(CHUNK, length)), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH });
  for (let left = length; left > 0; left -= CHUNK) {
    blocks.push(left >= CHUNK ? full : zlib.deflateRawSync(Buffer.alloc(left), { level: 9, finishFlush: zlib.constants.Z_SYNC_FLUSH }));
  }
  blocks.push(Buffer.from([0x03, 0x00])); // a final, empty fixed-Huffman block
  const adler = Buffer.alloc(4);
  adler.writeUInt32BE(((length % 65521) * 65536 + 1) >>> 0, 0); // Adler-32 of zeros: a = 1, b = length
  blocks.push(adler);
  return Buffer.concat(blocks);
}

let pngBomb: string | undefined;
/** ~109 KB of real, complete data for 30000×30000 pixels (built on first use: deflating takes a moment). */
export function pngBombDataUrl(): string {
  pngBomb ??= rasterDataUrl('image/png', pngClaiming(30000, 30000));
  return pngBomb;
}
/** A huge IHDR with almost no data behind it. */
export const PNG_HEADER_BOMB = rasterDataUrl('image/png', pngClaiming(30000, 30000, 1));
/** A raster bomb inside an otherwise harmless SVG. */
export const SVG_NESTED_JPEG_BOMB_SVG = `<svg ${NS} viewBox="0 0 10 10"><image width="10" height="10" href="${JPEG_BOMB}"/></svg>`;

/** One 16-megapixel image (allowed on its own) drawn 20 times through <use>: each is decoded. */
export const IMAGE_USE_BOMB_SVG = `<svg ${NS} viewBox="0 0 10 10"><defs><image id="i" width="10" height="10" href="${rasterDataUrl('image/png', pngClaiming(4096, 4096))}"/></defs>${'<use href="#i"/>'.repeat(20)}</svg>`;

/** `fill="url(` + 6,000 spaces + `"`: cubic backtracking in the old url() reader. */
export const REDOS_URL_SVG = `<svg ${NS}><rect width="1" height="1" fill="url(${' '.repeat(6000)}"/></svg>`;
/** A 40 KB root width that the old length regex read in quadratic time. */
export const REDOS_LENGTH_SVG = `<svg ${NS} width="1${' '.repeat(40_000)}x" height="1"/>`;

/** CSS functions that load a URL; a browser showing the stored logo would fetch them. */
export const CSS_IMAGE_SET_SVG = `<svg ${NS}><style>rect { fill: red; background-image: image-set("http://evil.example/a.png" 1x) }</style><rect width="1" height="1" style="background:-webkit-image-set(url(http://evil.example/b.png) 1x);fill:blue"/><circle r="1" style="cursor:image('http://evil.example/c.png')"/></svg>`;

/** Each logo that must be refused, by name, as it would arrive in `customLogoUrl`. */
export function refusedLogos(): Record<string, string> {
  return {
    'filter morphology with a tiny viewBox': svgDataUrl(FILTER_MORPHOLOGY_SVG),
    'filter morphology under a scale transform': svgDataUrl(FILTER_TRANSFORM_SVG),
    'filter with hundreds of primitives': svgDataUrl(FILTER_CHAIN_SVG),
    'patterns nested 8 deep': svgDataUrl(PATTERN_BOMB_SVG),
    'masks nested 8 deep': svgDataUrl(MASK_BOMB_SVG),
    'clip paths nested 8 deep': svgDataUrl(CLIP_BOMB_SVG),
    'patterns nested 8 deep through CSS': svgDataUrl(CSS_PATTERN_BOMB_SVG),
    'reference cycle': svgDataUrl(REFERENCE_CYCLE_SVG),
    'coordinates of 10^6 units in a 10-unit viewBox': svgDataUrl(HUGE_COORDINATES_SVG),
    'a path walking 500,000 units away by relative steps': svgDataUrl(FAR_PATH_SVG),
    'JPEG claiming 65500×65500': JPEG_BOMB,
    'progressive JPEG claiming 65500×65500': JPEG_PROGRESSIVE_BOMB,
    'JPEG with a huge second frame': JPEG_SECOND_FRAME_BOMB,
    'PNG of 30000×30000': pngBombDataUrl(),
    'PNG header of 30000×30000 without data': PNG_HEADER_BOMB,
    'JPEG bomb inside an SVG': svgDataUrl(SVG_NESTED_JPEG_BOMB_SVG),
    'a 16-megapixel image used 20 times': svgDataUrl(IMAGE_USE_BOMB_SVG),
  };
}

/** Logos that are accepted, but only once the hostile part is dropped (quickly). */
export function defusedLogos(): Record<string, string> {
  return {
    'url( with 6,000 spaces': svgDataUrl(REDOS_URL_SVG),
    '40 KB root width': svgDataUrl(REDOS_LENGTH_SVG),
    'CSS image-set and other loading functions': svgDataUrl(CSS_IMAGE_SET_SVG),
  };
}

/** Logos as design tools export them; each must survive the hardening and still draw. */
export const ORDINARY_LOGOS: Record<string, string> = {
  'gallery logo':
    '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="24" fill="#f97316"/><path d="M30 72V28h24a15 15 0 0 1 0 30H30" fill="none" stroke="#fff" stroke-width="11" stroke-linejoin="round"/></svg>',
  'Illustrator-style classes, gradients and a clip path': `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" version="1.1" x="0px" y="0px" viewBox="0 0 200 200" xml:space="preserve"><style type="text/css">
    .st0{fill:url(#SVGID_1_);}
    .st1{clip-path:url(#SVGID_2_);fill:#FFFFFF;}
    .st2{fill:none;stroke:#1D1D1B;stroke-width:4;stroke-miterlimit:10;}
  </style><linearGradient id="SVGID_1_" gradientUnits="userSpaceOnUse" x1="0" y1="100" x2="200" y2="100"><stop offset="0" style="stop-color:#E6007E"/><stop offset="1" style="stop-color:#009FE3"/></linearGradient><circle class="st0" cx="100" cy="100" r="95"/><defs><rect id="SVGID_3_" x="40" y="40" width="120" height="120"/></defs><clipPath id="SVGID_2_"><use xlink:href="#SVGID_3_" style="overflow:visible;"/></clipPath><path class="st1" d="M100 30 L170 170 L30 170 Z"/><circle class="st2" cx="100" cy="100" r="60"/></svg>`,
  'a symbol reused by twenty uses': `<svg ${NS} viewBox="0 0 100 100"><defs><symbol id="dot" viewBox="0 0 10 10"><circle cx="5" cy="5" r="4" fill="#0a7"/></symbol></defs>${Array.from({ length: 20 }, (_, i) => `<use href="#dot" x="${(i % 5) * 20}" y="${Math.floor(i / 5) * 25}" width="18" height="18"/>`).join('')}</svg>`,
  'a drop shadow filter': `<svg ${NS} viewBox="0 0 64 64"><filter id="shadow" x="-20%" y="-20%" width="140%" height="140%"><feGaussianBlur in="SourceAlpha" stdDeviation="1.5"/><feOffset dx="1" dy="2" result="o"/><feFlood flood-color="#000" flood-opacity="0.4"/><feComposite in2="o" operator="in"/><feMerge><feMergeNode/><feMergeNode in="SourceGraphic"/></feMerge></filter><rect x="8" y="8" width="48" height="48" rx="10" fill="#2563eb" filter="url(#shadow)"/></svg>`,
  'Inkscape-style gradient inheritance and a pattern': `<svg ${NS} xmlns:xlink="http://www.w3.org/1999/xlink" width="120" height="120"><defs><linearGradient id="base"><stop offset="0" stop-color="#f59e0b"/><stop offset="1" stop-color="#dc2626"/></linearGradient><radialGradient id="use-base" xlink:href="#base" cx="60" cy="60" r="60" gradientUnits="userSpaceOnUse"/><pattern id="stripes" width="8" height="8" patternUnits="userSpaceOnUse" patternTransform="rotate(45)"><rect width="4" height="8" fill="#fff" opacity="0.3"/></pattern><mask id="m"><circle cx="60" cy="60" r="50" fill="#fff"/></mask></defs><g mask="url(#m)"><rect width="120" height="120" fill="url(#use-base)"/><rect width="120" height="120" fill="url(#stripes)"/></g></svg>`,
  'a slight dilate that is clamped, not refused': `<svg ${NS} viewBox="0 0 100 100"><filter id="bold"><feMorphology operator="dilate" radius="1"/></filter><text x="10" y="60" font-size="40" filter="url(#bold)">Qr</text></svg>`,
};
