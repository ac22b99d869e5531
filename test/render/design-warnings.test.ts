import { describe, expect, it } from 'vitest';
import { DEFAULT_DESIGN, type QrDesign } from '../../src/domain/design/design.ts';
import { contrastRatio, createQrMatrix, designWarnings } from '../../src/render/index.ts';
import { qrVersion } from '../../src/render/qr-matrix.ts';
import { parseHex } from '../../src/render/paint.ts';

const design = (d: Partial<QrDesign> = {}): QrDesign => ({ ...DEFAULT_DESIGN, ...d });

describe('designWarnings', () => {
  it('is empty for the default design and for dark-on-light designs', () => {
    expect(designWarnings(design())).toEqual([]);
    expect(designWarnings(design({ color1: '#1d4ed8', isGradient: true, color2: '#9333ea', frameStyle: 'badge' }))).toEqual([]);
    expect(designWarnings(design({ bgTransparent: true, bgColor: '#000000' }))).toEqual([]);
  });

  it('computes WCAG contrast ratios', () => {
    expect(contrastRatio(parseHex('#000000'), parseHex('#ffffff'))).toBeCloseTo(21, 5);
    expect(contrastRatio(parseHex('#777777'), parseHex('#ffffff'))).toBeCloseTo(4.48, 2);
  });

  it('warns about a code colour below 3:1 against the background', () => {
    const [w] = designWarnings(design({ color1: '#aaaaaa' }));
    expect(w).toMatch(/^The code colour #aaaaaa has a contrast of 2\.3:1 against the background #ffffff; phones need at least 3:1/);
  });

  it('checks both gradient stops and the eye colour', () => {
    expect(designWarnings(design({ isGradient: true, color2: '#dddddd' }))[0]).toMatch(/second gradient colour #dddddd/);
    expect(designWarnings(design({ customEyeColors: true, eyeColor: '#eeeeee' }))[0]).toMatch(/eye colour #eeeeee/);
    expect(designWarnings(design({ customEyeColors: false, eyeColor: '#eeeeee' }))).toEqual([]);
  });

  it('assumes white behind a transparent background', () => {
    expect(designWarnings(design({ bgTransparent: true, color1: '#ffff00' }))[0]).toMatch(
      /against the background white \(the background is transparent\)/,
    );
  });

  it('counts a colour’s transparency', () => {
    expect(designWarnings(design({ color1: '#00000030' }))[0]).toMatch(/code colour #00000030/);
  });

  it('warns about light codes on dark backgrounds', () => {
    const warnings = designWarnings(design({ color1: '#ffffff', bgColor: '#000000' }));
    expect(warnings).toHaveLength(1);
    expect(warnings[0]).toMatch(/lighter than its background/);
  });

  it('warns when frame text would be hard to read on the frame', () => {
    expect(designWarnings(design({ frameStyle: 'phone', frameColor: '#000000', frameTextColor: '#333333' }))[0]).toMatch(
      /frame text colour #333333/,
    );
    expect(designWarnings(design({ frameStyle: 'none', frameColor: '#000000', frameTextColor: '#333333' }))).toEqual([]);
  });

  it('warns, more mildly, about a colour between 3:1 and 4.5:1 and names the colour that scans reliably', () => {
    const [w] = designWarnings(design({ color1: '#777777' }));
    expect(w).toMatch(/^The code colour #777777 has a contrast of only 4\.5:1 against the background #ffffff; it scans in good light/);
    expect(w).toMatch(/4\.5:1 or more/);
    expect(designWarnings(design({ color1: '#767676' }))).toEqual([]); // 4.54:1, the first grey above the line
    expect(designWarnings(design({ color1: '#949494' }))).toHaveLength(1); // 3.0:1: the milder warning, not the stronger one
    expect(designWarnings(design({ color1: '#949494' }))[0]).toMatch(/contrast of only 3\.0:1/);
  });

  it('warns about round dots and circular corner squares, and about nothing else in the style', () => {
    expect(designWarnings(design({ dotsStyle: 'dots' }))).toEqual([expect.stringMatching(/^Round dots \('dots'\) leave gaps/)]);
    expect(designWarnings(design({ cornerSquare: 'dot' }))).toEqual([expect.stringMatching(/^Circular corner squares \('dot'\)/)]);
    expect(designWarnings(design({ dotsStyle: 'dots', cornerSquare: 'dot' }))).toHaveLength(2);
    for (const dotsStyle of ['square', 'rounded', 'extra-rounded', 'classy', 'classy-rounded'] as const) {
      for (const cornerSquare of ['square', 'extra-rounded', 'classy', 'classy-rounded'] as const) {
        expect(designWarnings(design({ dotsStyle, cornerSquare, cornerDot: 'dot' }))).toEqual([]);
      }
    }
  });

  describe('a logo over an alignment pattern (codes of version 7 and up)', () => {
    // 60 characters: version 7 at H (an alignment pattern in the middle), version 5 at Q.
    const LONG = 'https://links.a-rather-long-company-domain.example/r/k9T2mQa';
    const logo = (d: Partial<QrDesign>) => design({ presetLogo: 'link', errorCorrectionLevel: 'H', ...d });

    it('warns when the logo covers one, and names the level that avoids it', () => {
      expect(designWarnings(logo({}), LONG)).toEqual([
        'At error-correction level H this content makes a large code (version 7) whose logo covers one of its alignment marks; some scanner apps (those built on ZBar) then cannot read it. Error-correction level Q or lower, or no logo, avoids this.',
      ]);
      expect(designWarnings(logo({ presetLogo: 'none', customLogoUrl: 'data:image/png;base64,AAAA' }), LONG)).toHaveLength(1);
      expect(designWarnings(logo({ logoSize: 0.1 }), LONG)).toHaveLength(1);
    });

    it('stays quiet without a logo, below version 7, and when the text is not known', () => {
      expect(designWarnings(logo({ presetLogo: 'none' }), LONG)).toEqual([]);
      expect(designWarnings(logo({ errorCorrectionLevel: 'Q' }), LONG)).toEqual([]);
      expect(designWarnings(logo({}), 'https://qr.example.com/r/Zx81Qp0')).toEqual([]);
      expect(designWarnings(logo({}))).toEqual([]);
    });

    it('suggests shorter content when every level makes a code that large', () => {
      const longer = `${LONG}?campaign=${'x'.repeat(70)}`;
      expect(qrVersion(longer, 'L')).toBeGreaterThanOrEqual(7);
      expect(designWarnings(logo({ errorCorrectionLevel: 'L' }), longer)[0]).toMatch(
        /version \d+\) whose logo covers .* Shorter content or no logo avoids this\.$/,
      );
      expect(designWarnings(logo({ errorCorrectionLevel: 'H' }), `${LONG}${'y'.repeat(40)}`)[0]).toMatch(
        /Error-correction level M or lower, or no logo/,
      );
    });

    it('picks the same version as the encoder, for every kind of text, without building the matrix', () => {
      const texts = [
        LONG,
        '1234567890'.repeat(9),
        'HELLO WORLD 42 $%*+-./:'.repeat(3),
        'ünïcødé → ★ ✓ 漢字',
        'MiXeD 0123 case/ÄÖ',
        'x'.repeat(3000),
      ];
      for (const text of texts) {
        for (const level of ['L', 'M', 'Q', 'H'] as const) {
          let expected: number | null = null;
          try {
            expected = createQrMatrix(text, level).version;
          } catch {
            expected = null; // too long at this level
          }
          expect(qrVersion(text, level), `${text.slice(0, 20)} at ${level}`).toBe(expected);
        }
      }
    });
  });
});
