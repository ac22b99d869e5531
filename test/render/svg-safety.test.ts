import { SaxesParser } from 'saxes';
import { describe, expect, it } from 'vitest';
import { DEFAULT_DESIGN, FRAME_STYLES, type QrDesign } from '../../src/domain/design/design.ts';
import { ValidationError } from '../../src/domain/errors.ts';
import { parseLogoDataUrl } from '../../src/domain/design/logo.ts';
import { renderPng, renderSvg } from '../../src/render/index.ts';
import { logoBox } from '../../src/render/logo-layer.ts';
import { FILTER_CAPS_PX, REFERENCE_LIMITS } from '../../src/render/svg-references.ts';
import { MAX_LOGO_DRAW_PX, sanitizeSvg, SvgRejected } from '../../src/render/svg-sanitizer.ts';
import {
  CLIP_BOMB_SVG,
  CSS_IMAGE_SET_SVG,
  CSS_PATTERN_BOMB_SVG,
  FILTER_CHAIN_SVG,
  FILTER_MORPHOLOGY_SVG,
  FILTER_TRANSFORM_SVG,
  MASK_BOMB_SVG,
  FAR_PATH_SVG,
  HUGE_COORDINATES_SVG,
  IMAGE_USE_BOMB_SVG,
  ORDINARY_LOGOS,
  PATTERN_BOMB_SVG,
  REDOS_LENGTH_SVG,
  REDOS_URL_SVG,
  REFERENCE_CYCLE_SVG,
} from '../support/hostile-logos.ts';
import { SHORT_URL } from './fixtures.ts';

const NS = 'xmlns="http://www.w3.org/2000/svg"';
const XLINK = 'xmlns:xlink="http://www.w3.org/1999/xlink"';
const PNG_1PX = 'iVBORw0KGgoAAAANSUhEUgAAAAEAAAABCAYAAAAfFcSJAAAADUlEQVR42mNkYPhfDwAChwGA60e6kgAAAABJRU5ErkJggg==';

const HOSTILE_LOGOS: Record<string, string> = {
  script: `<svg ${NS}><script>alert(1)</script><rect width="10" height="10"/></svg>`,
  'CDATA script': `<svg ${NS}><script><![CDATA[alert(1)]]></script></svg>`,
  'namespaced script': `<s:svg xmlns:s="http://www.w3.org/2000/svg"><s:script>alert(1)</s:script><s:rect width="1" height="1"/></s:svg>`,
  'event handlers': `<svg ${NS} onload="alert(1)"><rect width="10" height="10" onclick="alert(2)" onmouseover='alert(3)'/></svg>`,
  foreignObject: `<svg ${NS}><foreignObject width="100" height="100"><iframe xmlns="http://www.w3.org/1999/xhtml" src="https://evil.example/"/></foreignObject></svg>`,
  'external image': `<svg ${NS} ${XLINK}><image href="https://evil.example/a.png" width="10" height="10"/><image xlink:href="http://evil.example/b.png"/></svg>`,
  'external use': `<svg ${NS}><use href="https://evil.example/sprite.svg#icon"/></svg>`,
  'file: reference': `<svg ${NS} ${XLINK}><image href="file:///etc/passwd"/><use xlink:href="file:///etc/hosts#x"/></svg>`,
  'javascript: link': `<svg ${NS} ${XLINK}><a href="javascript:alert(1)"><rect width="5" height="5"/></a><use xlink:href="javascript:alert(1)"/></svg>`,
  'entity-encoded javascript:': `<svg ${NS}><use href="&#106;avascript:alert(1)"/></svg>`,
  'nested svg image': `<svg ${NS}><image href="data:image/svg+xml;base64,${Buffer.from(`<svg ${NS} onload="alert(1)"/>`).toString('base64')}"/></svg>`,
  'style @import and url()': `<svg ${NS}><style>@import url(https://evil.example/x.css); rect { fill: url(https://evil.example/p.svg#a) }</style><rect style="fill:url(http://evil.example/#p)" width="1" height="1"/></svg>`,
  'css escapes': `<svg ${NS}><style>rect { background: u\\72l(https://evil.example/) }</style></svg>`,
  'presentation url()': `<svg ${NS}><rect fill="url(https://evil.example/#g)" filter="url('file:///x#f')" width="1" height="1"/></svg>`,
  animation: `<svg ${NS}><a><animate attributeName="href" to="javascript:alert(1)"/></a><set attributeName="onload" to="alert(1)"/></svg>`,
  'processing instruction': `<?xml-stylesheet href="https://evil.example/x.css"?><svg ${NS}><rect width="1" height="1"/></svg>`,
  'huge dimensions': `<svg ${NS} width="100000000" height="100000000" viewBox="0 0 1e12 1e12"><filter id="f"><feGaussianBlur stdDeviation="100000"/></filter><rect width="1e12" height="1e12" filter="url(#f)"/></svg>`,
  'use bomb': `<svg ${NS}><defs><g id="a"><rect width="1" height="1"/></g><g id="b"><use href="#a"/><use href="#a"/></g><g id="c"><use href="#b"/><use href="#b"/></g></defs><use href="#c"/></svg>`,
  feImage: `<svg ${NS}><filter id="f"><feImage href="https://evil.example/x.png"/></filter></svg>`,
  'raster image kept': `<svg ${NS}><image href="data:image/png;base64,${PNG_1PX}" width="1" height="1"/></svg>`,
};

const REJECTED_LOGOS: Record<string, string> = {
  'DOCTYPE with entities': `<?xml version="1.0"?><!DOCTYPE svg [<!ENTITY a "aaaaaaaaaa"><!ENTITY b "&a;&a;&a;&a;&a;&a;">]><svg ${NS}><text>&b;</text></svg>`,
  'external entity': `<!DOCTYPE svg SYSTEM "file:///etc/passwd"><svg ${NS}/>`,
  'undeclared entity': `<svg ${NS}><text>&xxe;</text></svg>`,
  'not SVG': `<html><body onload="alert(1)"/></html>`,
};

/** What the browser, or any SVG consumer, could act on. Nested SVG data URLs are checked too. */
function activeContent(svg: string): string[] {
  const found: string[] = [];
  if (/<\s*(?:[\w-]+:)?script/i.test(svg)) found.push('script element');
  if (/\son[a-z]+\s*=/i.test(svg)) found.push('event handler');
  if (/foreignObject|<iframe|<!DOCTYPE|<!ENTITY|<animate|<set\b|<a\b|@import|<\?xml-stylesheet/i.test(svg))
    found.push('forbidden construct');
  const refs = [...svg.matchAll(/(?:href|src)\s*=\s*["']([^"']*)["']/gi), ...svg.matchAll(/url\(\s*['"]?([^)'"]*)/gi)].map((m) =>
    m[1]!.trim(),
  );
  for (const ref of refs) {
    if (ref.startsWith('#') || /^data:image\/(?:png|jpeg|webp);base64,/i.test(ref)) continue;
    const nested = /^data:image\/svg\+xml;base64,(.*)$/i.exec(ref);
    if (nested) found.push(...activeContent(Buffer.from(nested[1]!, 'base64').toString('utf8')));
    else found.push(`external reference ${ref.slice(0, 40)}`);
  }
  return found;
}

function wellFormed(svg: string): boolean {
  const parser = new SaxesParser({ xmlns: true });
  let ok = true;
  parser.on('error', () => {
    ok = false;
  });
  parser.write(svg).close();
  return ok;
}

const svgUrl = (svg: string) => `data:image/svg+xml;base64,${Buffer.from(svg).toString('base64')}`;

describe('SVG logo sanitizing', () => {
  it.each(Object.entries(HOSTILE_LOGOS))('%s: leaves no active content or external reference', (_, hostile) => {
    const logo = parseLogoDataUrl('customLogoUrl', svgUrl(hostile));
    const clean = new TextDecoder().decode(logo.bytes);
    expect(activeContent(clean)).toEqual([]);
    expect(wellFormed(clean)).toBe(true);
    const rendered = renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, customLogoUrl: logo.dataUrl }, { size: 500 });
    expect(activeContent(rendered)).toEqual([]);
  });

  it.each(Object.entries(REJECTED_LOGOS))('%s: is refused', (_, hostile) => {
    expect(() => parseLogoDataUrl('customLogoUrl', svgUrl(hostile))).toThrow(ValidationError);
  });

  it('caps huge declared sizes and drops absurd viewBoxes', () => {
    const clean = new TextDecoder().decode(parseLogoDataUrl('f', svgUrl(HOSTILE_LOGOS['huge dimensions']!)).bytes);
    expect(clean).toMatch(/<svg xmlns="http:\/\/www\.w3\.org\/2000\/svg" width="2048" height="2048"/);
    expect(clean).not.toContain('1e12');
    expect(clean).toContain('stdDeviation="100"');
  });

  it('keeps uses of uses while the expanded drawing stays within budget', () => {
    const clean = new TextDecoder().decode(parseLogoDataUrl('f', svgUrl(HOSTILE_LOGOS['use bomb']!)).bytes);
    expect(clean.match(/<use /g)).toHaveLength(5);
  });

  it('keeps inline raster images and internal references', () => {
    const clean = new TextDecoder().decode(parseLogoDataUrl('f', svgUrl(HOSTILE_LOGOS['raster image kept']!)).bytes);
    expect(clean).toContain(`href="data:image/png;base64,${PNG_1PX}"`);
  });

  it('re-renders a custom logo through the sanitizer even if the design skipped validation', () => {
    const design = { ...DEFAULT_DESIGN, customLogoUrl: svgUrl(HOSTILE_LOGOS.script!) };
    const rendered = renderSvg(SHORT_URL, design, { size: 500 });
    expect(activeContent(rendered)).toEqual([]);
    expect(() => renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, customLogoUrl: 'https://evil.example/x.png' })).toThrow(ValidationError);
  });
});

describe('hostile frame text', () => {
  const texts = [
    '</text><script>alert(1)</script>',
    '"><svg onload=alert(1)>',
    `' onmouseover='alert(1)`,
    '&amp; &lt; & "quotes" <![CDATA[x]]>',
    ']]><!--',
    '\u202e\u0000\uffff',
  ];
  it.each(FRAME_STYLES.filter((f) => f !== 'none'))('%s: text becomes outlines, never markup', (frameStyle) => {
    for (const frameText of texts) {
      const svg = renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, frameStyle, frameText } as QrDesign, { size: 500 });
      expect(activeContent(svg)).toEqual([]);
      expect(wellFormed(svg)).toBe(true);
      expect(svg).not.toContain('alert');
      expect(svg).not.toContain('quotes');
    }
  });
});

describe('rendered SVG', () => {
  it('never refers to anything outside itself, whatever the design', () => {
    const designs: Partial<QrDesign>[] = [
      {},
      { isGradient: true, gradientType: 'radial', color2: '#ff0000', presetLogo: 'location', frameStyle: 'badge' },
      {
        isGradient: true,
        gradientRotation: 33,
        customEyeColors: true,
        eyeColor: '#00ff0080',
        presetLogo: 'wifi',
        frameStyle: 'phone',
        bgTransparent: true,
      },
      { customLogoUrl: `data:image/png;base64,${PNG_1PX}`, frameStyle: 'bottom-banner' },
    ];
    for (const d of designs) {
      const svg = renderSvg(SHORT_URL, { ...DEFAULT_DESIGN, ...d }, { size: 500 });
      expect(activeContent(svg)).toEqual([]);
      expect(wellFormed(svg)).toBe(true);
      // The only http: in the document is the SVG namespace name, which is never fetched.
      expect(svg.match(/https?:/g)).toEqual(['http:']);
    }
  });
});

/** The reason a logo is refused, from the sanitizer itself. */
function refusal(svg: string): string {
  try {
    sanitizeSvg(svg);
  } catch (err) {
    expect(err).toBeInstanceOf(SvgRejected);
    return (err as Error).message;
  }
  throw new Error('expected the logo to be refused');
}

const doc = (body: string, root = 'viewBox="0 0 100 100"') => `<svg ${NS} ${root}>${body}</svg>`;

describe('costly logos', () => {
  it('refuses a morphology radius that a tiny viewBox or a transform scales past the cap, naming the pixels', () => {
    expect(refusal(FILTER_MORPHOLOGY_SVG)).toBe('too complex (a filter radius of 20480 px at the largest logo size; at most 8 px)');
    expect(refusal(FILTER_TRANSFORM_SVG)).toMatch(/^too complex \(a filter radius of \d+ px at the largest logo size; at most 8 px\)$/);
    const nested = doc(
      '<filter id="f"><feMorphology radius="1"/></filter><svg viewBox="0 0 1 1" width="100" height="100"><rect width="1" height="1" filter="url(#f)"/></svg>',
    );
    expect(refusal(nested)).toMatch(/^too complex \(a filter radius of/);
  });

  it('clamps filter parameters to device pixels at the largest logo size', () => {
    const pxPerUnit = MAX_LOGO_DRAW_PX / 100;
    const clean = sanitizeSvg(
      doc(
        '<filter id="f"><feMorphology radius="1"/><feGaussianBlur stdDeviation="99"/><feOffset dx="50" dy="-3"/></filter><rect width="10" height="10" filter="url(#f)"/>',
      ),
    );
    const attr = (name: string) => Number(new RegExp(`${name}="([^"]+)"`).exec(clean)![1]);
    expect(attr('radius') * pxPerUnit).toBeCloseTo(FILTER_CAPS_PX.radius, 1);
    expect(attr('stdDeviation') * pxPerUnit).toBeCloseTo(FILTER_CAPS_PX.stdDeviation, 0);
    expect(attr('dx')).toBe(50);
    expect(attr('dy')).toBe(-3);
  });

  it('leaves filters that nothing draws as they are', () => {
    expect(sanitizeSvg(doc('<filter id="f"><feMorphology radius="50"/></filter>'))).toContain('radius="50"');
  });

  it('refuses too many filter primitives, in one filter or over the drawing', () => {
    expect(refusal(FILTER_CHAIN_SVG)).toBe(`too complex (a filter with more than ${REFERENCE_LIMITS.primitivesPerFilter} primitives)`);
    const blur = '<feGaussianBlur stdDeviation="1"/>'.repeat(10);
    const many = doc(`<filter id="f">${blur}</filter>${'<rect width="1" height="1" filter="url(#f)"/>'.repeat(4)}`);
    expect(refusal(many)).toBe(`too complex (more than ${REFERENCE_LIMITS.primitives} filter primitives once references are expanded)`);
  });

  it.each([
    ['patterns', PATTERN_BOMB_SVG, 'pattern nesting deeper than 3'],
    ['masks', MASK_BOMB_SVG, 'mask nesting deeper than 3'],
    ['clip paths', CLIP_BOMB_SVG, 'clipPath nesting deeper than 3'],
    ['patterns named in style attributes', CSS_PATTERN_BOMB_SVG, 'pattern nesting deeper than 3'],
  ])('refuses %s nested 8 deep', (_, svg, why) => {
    expect(refusal(svg)).toBe(`too complex (${why})`);
  });

  it('follows references named in the style sheet', () => {
    const sheet = PATTERN_BOMB_SVG.replace(/fill="url\(#p(\d)\)"/g, 'class="l$1"').replace(
      '<defs>',
      `<style>${Array.from({ length: 8 }, (_, i) => `.l${i}{fill:url(#p${i})}`).join('')}</style><defs>`,
    );
    expect(refusal(sheet)).toBe('too complex (pattern nesting deeper than 3)');
  });

  it('refuses an expansion bomb of uses, and reference cycles', () => {
    const levels = Array.from({ length: 6 }, (_, i) => `<g id="u${i + 1}">${`<use href="#u${i}"/>`.repeat(10)}</g>`).join('');
    expect(refusal(doc(`<defs><rect id="u0" width="1" height="1"/>${levels}</defs><use href="#u6"/>`))).toMatch(/^too complex \(/);
    const wide = doc(`<defs><g id="a">${'<rect width="1" height="1"/>'.repeat(5000)}</g></defs>${'<use href="#a"/>'.repeat(5)}`);
    expect(refusal(wide)).toBe(`too complex (more than ${REFERENCE_LIMITS.instances} elements once references are expanded)`);
    expect(refusal(REFERENCE_CYCLE_SVG)).toBe('too complex (a reference cycle through #a)');
    expect(refusal(doc('<g id="g"><use href="#g"/></g>'))).toMatch(/^too complex \(a reference cycle/);
  });

  it('refuses more masks, clip paths and patterns than its layer budget', () => {
    const layers = doc(
      `<mask id="m"><rect width="9" height="9" fill="#fff"/></mask>${'<rect width="9" height="9" mask="url(#m)"/>'.repeat(REFERENCE_LIMITS.layers + 1)}`,
    );
    expect(refusal(layers)).toBe(
      `too complex (more than ${REFERENCE_LIMITS.layers} patterns, masks, clip paths and filters once references are expanded)`,
    );
  });

  it('refuses coordinates that land a million pixels away, however they get there', () => {
    const limit = `at most ${REFERENCE_LIMITS.devicePx})`;
    expect(refusal(HUGE_COORDINATES_SVG)).toBe(`too complex (coordinates reach 409600000 px at the largest logo size; ${limit}`);
    expect(refusal(FAR_PATH_SVG)).toMatch(/^too complex \(coordinates reach \d+ px/);
    expect(refusal(doc('<g transform="translate(1e6)"><rect width="1" height="1"/></g>'))).toMatch(/^too complex \(coordinates reach/);
    expect(refusal(doc('<g transform="scale(1e4)"><g transform="scale(1e4)"><rect width="1" height="1"/></g></g>'))).toMatch(
      /^too complex \(coordinates reach/,
    );
    expect(refusal(doc('<defs><rect id="r" width="1" height="1"/></defs><use href="#r" x="1e6"/>'))).toMatch(
      /^too complex \(coordinates reach/,
    );
    expect(refusal(doc('<rect width="1" height="1" stroke="#000" stroke-width="1e6"/>'))).toMatch(/^too complex \(coordinates reach/);
    expect(refusal(doc('<style>rect{stroke-width:999999}</style><rect width="1" height="1"/>'))).toMatch(
      /^too complex \(coordinates reach/,
    );
  });

  it('keeps far-but-sane geometry and bounding-box units', () => {
    expect(sanitizeSvg(doc('<rect x="-500" y="-500" width="1100" height="1100"/>'))).toContain('width="1100"');
    const clip = doc(
      '<clipPath id="c" clipPathUnits="objectBoundingBox"><circle cx="0.5" cy="0.5" r="0.5"/></clipPath><rect width="100" height="100" clip-path="url(#c)"/>',
    );
    expect(sanitizeSvg(clip)).toContain('clip-path="url(#c)"');
  });

  it('drops geometry in units that multiply the number (mm, in, em)', () => {
    expect(sanitizeSvg(doc('<rect x="1e6in" y="5mm" width="10px" height="50%"/>'))).toContain('<rect width="10px" height="50%"/>');
  });

  it('counts the pixels of every embedded image instance against the 16-megapixel limit', () => {
    expect(refusal(IMAGE_USE_BOMB_SVG)).toBe(
      'too complex (embedded images add up to more than 16 megapixels once references are expanded)',
    );
    expect(sanitizeSvg(IMAGE_USE_BOMB_SVG.replace(/(<use href="#i"\/>)+/, '<use href="#i"/>'))).toContain('<use href="#i"/>');
  });

  it('the drawing-size bound covers every logo box the renderer can lay out', () => {
    for (let n = 21; n <= 177; n += 4) {
      const box = logoBox(n, 'H', 0.5);
      expect(box.side * (4096 / (n + 8))).toBeLessThanOrEqual(MAX_LOGO_DRAW_PX);
    }
  });
});

describe('ordinary logos', () => {
  it.each(Object.entries(ORDINARY_LOGOS))('%s: survives sanitizing and draws', (_, svg) => {
    const logo = parseLogoDataUrl('customLogoUrl', svgUrl(svg));
    const clean = new TextDecoder().decode(logo.bytes);
    expect(activeContent(clean)).toEqual([]);
    const png = renderPng(
      SHORT_URL,
      { ...DEFAULT_DESIGN, errorCorrectionLevel: 'H', logoSize: 0.5, customLogoUrl: logo.dataUrl },
      { size: 500 },
    );
    expect(png.subarray(1, 4).toString()).toBe('PNG');
  });

  it('keeps what the design tools wrote: classes, gradients, clip paths, symbols, filters', () => {
    const clean = (name: string) => sanitizeSvg(ORDINARY_LOGOS[name]!);
    expect(clean('Illustrator-style classes, gradients and a clip path')).toContain(
      '>.st0{fill:url(#SVGID_1_)}.st1{clip-path:url(#SVGID_2_);fill:#FFFFFF}.st2{fill:none;stroke:#1D1D1B;stroke-width:4;stroke-miterlimit:10}</style>',
    );
    expect(clean('a symbol reused by twenty uses').match(/<use /g)).toHaveLength(20);
    expect(clean('a drop shadow filter')).toContain(
      '<feGaussianBlur in="SourceAlpha" stdDeviation="1.5"/><feOffset dx="1" dy="2" result="o"/>',
    );
    expect(clean('Inkscape-style gradient inheritance and a pattern')).toContain('patternTransform="rotate(45)"');
  });
});

describe('CSS allow-list', () => {
  it('drops every URL-loading CSS function, escape and at-rule, keeping the harmless declarations', () => {
    expect(sanitizeSvg(CSS_IMAGE_SET_SVG)).toBe(
      `<svg xmlns="http://www.w3.org/2000/svg"><style>rect{fill:red}</style><rect width="1" height="1" style="fill:blue"/><circle r="1"/></svg>`,
    );
    const loaders = [
      'background:image-set("http://e.example/a.png" 1x)',
      "fill:image('http://e.example/a.png')",
      'fill:cross-fade(url(#a), url(http://e.example/))',
      'fill:element(#a)',
      'fill:src("http://e.example/")',
      'mask:-webkit-image-set(url(http://e.example/) 1x)',
      'fill:url(http://e.example/#a)',
      'fill:url("http://e.example/#a")',
      'fill:u\\72l(http://e.example/)',
      'fill:\\75rl(http://e.example/)',
      'fill:url(\\#a)',
      'fill:URL( https://e.example/ )',
      'fill:red;behavior:url(x.htc)',
      'fill:expression(alert(1))',
      'fill:var(--x)',
      'fill:attr(href)',
      'fill:red !important',
    ];
    for (const css of loaders) {
      const clean = sanitizeSvg(doc(`<style>rect{${css}}</style><rect width="1" height="1" style="${css.replace(/"/g, '&quot;')}"/>`));
      expect(clean, css).not.toMatch(/e\.example|image|element|src|expression|var|attr|behavior|important|\\/i);
    }
  });

  it('drops at-rules and complex selectors from style sheets', () => {
    const sheet =
      '@import url(http://e.example/x.css);@font-face{font-family:x;src:url(http://e.example/f.woff)}@media screen{rect{fill:red}}rect:hover{fill:blue}a[href]{fill:red}g > .a #b, circle{fill:#0f0}*{opacity:0.5}';
    expect(sanitizeSvg(doc(`<style>${sheet}</style>`))).toContain('<style>g&gt;.a #b,circle{fill:#0f0}*{opacity:0.5}</style>');
  });

  it('keeps only presentation properties in style attributes', () => {
    expect(
      sanitizeSvg(
        doc(
          '<rect style="fill: rgb(1, 2, 3); stroke:hsla(1,2%,3%,0.5); position:fixed; font-family:\'Open Sans\', sans-serif; fill-opacity:.5" width="1" height="1"/>',
        ),
      ),
    ).toContain('style="fill:rgb(1, 2, 3);stroke:hsla(1,2%,3%,0.5);font-family:&#39;Open Sans&#39;, sans-serif;fill-opacity:.5"');
  });
});

describe('crafted inputs that used to backtrack', () => {
  it('reads url( followed by 6,000 spaces at once and drops the attribute', () => {
    expect(sanitizeSvg(REDOS_URL_SVG)).toBe(`<svg xmlns="http://www.w3.org/2000/svg"><rect width="1" height="1"/></svg>`);
  });

  it('reads a 40 KB root width at once and drops it', () => {
    expect(sanitizeSvg(REDOS_LENGTH_SVG)).toBe(`<svg xmlns="http://www.w3.org/2000/svg" height="1"/>`);
  });
});
