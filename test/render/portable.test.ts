// The SVG renderer must run in the browser (the studio's live preview) unchanged: its
// import graph is bundled for the browser and run in a bare JavaScript context, without
// Node's modules or globals (Buffer, process), and must draw the same bytes as in Node.
import fs from 'node:fs';
import { builtinModules, createRequire } from 'node:module';
import vm from 'node:vm';
import { build } from 'esbuild';
import * as harfbuzz from 'harfbuzzjs';
import { beforeAll, describe, expect, it } from 'vitest';
import { DEFAULT_DESIGN, type QrDesign } from '../../src/domain/design/design.ts';
import { designWarnings, renderSvg } from '../../src/render/index.ts';
import { LOGO_SVG_DATA_URL, SHORT_URL, logoPngDataUrl } from './fixtures.ts';

const ENTRIES = ['src/render/portable.ts', 'src/domain/design/design.ts', 'src/domain/payload/index.ts'];
const builtins = new Set(builtinModules);
const require = createRequire(import.meta.url);

interface Bundle {
  code: string;
  nodeImports: string[];
  ourFiles: string[];
}

async function bundleForBrowser(): Promise<Bundle> {
  const nodeImports: string[] = [];
  const out = await build({
    stdin: { contents: ENTRIES.map((e, i) => `export * as m${i} from './${e}';`).join('\n'), resolveDir: process.cwd(), loader: 'ts' },
    bundle: true,
    write: false,
    platform: 'browser',
    format: 'iife',
    globalName: 'portable',
    metafile: true,
    logLevel: 'silent',
    plugins: [
      {
        name: 'node-builtins',
        setup(b) {
          b.onResolve({ filter: /.*/ }, (args) => {
            const name = args.path.replace(/^node:/, '').split('/')[0]!;
            if (args.path.startsWith('node:') || builtins.has(name)) {
              nodeImports.push(`${args.importer} imports ${args.path}`);
              return { path: args.path, external: true };
            }
            return undefined;
          });
        },
      },
    ],
  });
  return { code: out.outputFiles[0]!.text, nodeImports, ourFiles: Object.keys(out.metafile.inputs).filter((f) => f.startsWith('src/')) };
}

type Portable = {
  m0: {
    renderSvg: typeof renderSvg;
    designWarnings: typeof designWarnings;
    setFontSource(s: { read(f: string): Uint8Array | undefined }): void;
    setShaper(s: typeof harfbuzz): void;
  };
};

describe('the portable renderer', () => {
  let bundle: Bundle;
  beforeAll(async () => {
    bundle = await bundleForBrowser();
  }, 60_000);

  it('bundles for the browser with no Node module in its import graph', () => {
    expect(bundle.nodeImports).toEqual([]);
    expect(bundle.ourFiles).toContain('src/render/render-svg.ts');
  });

  it('uses no Node global (Buffer, process, require) in our own files of the graph', () => {
    // A property of that name (HarfBuzz's `hb.Buffer`) is not the global.
    const offenders = bundle.ourFiles.filter((f) =>
      /(?<![.\w])(Buffer|process|require|__dirname)\b/.test(stripComments(fs.readFileSync(f, 'utf8'))),
    );
    expect(offenders).toEqual([]);
  });

  it('draws in a bare JavaScript context the same bytes as in Node (logos, frame text, gradients)', () => {
    // Only what a browser has and Node's vm lacks by default.
    const context = vm.createContext({ TextEncoder, TextDecoder, URL });
    vm.runInContext(bundle.code, context);
    const lib = (context as { portable: Portable }).portable.m0;
    // The browser installs harfbuzzjs as it loads it; here Node's copy stands in for it.
    lib.setShaper(harfbuzz);
    const fontsRead: string[] = [];
    lib.setFontSource({
      read: (file) => {
        fontsRead.push(file);
        return new Uint8Array(fs.readFileSync(require.resolve(file)));
      },
    });
    const designs: Partial<QrDesign>[] = [
      {},
      {
        dotsStyle: 'classy-rounded',
        cornerSquare: 'extra-rounded',
        cornerDot: 'dot',
        isGradient: true,
        gradientType: 'radial',
        gradientRotation: 45,
        color1: '#1d4ed8',
        color2: '#9333ea',
      },
      { frameStyle: 'bottom-banner', frameText: 'Scan für Menü — Ωμέγα', presetLogo: 'wifi', customEyeColors: true, eyeColor: '#dc2626' },
      { customLogoUrl: LOGO_SVG_DATA_URL, logoSize: 0.5, logoMargin: 20, frameStyle: 'phone' },
      { frameStyle: 'badge', frameText: 'امسح · 扫码 · स्कैन · 스캔 ★ 😀' },
      { frameStyle: 'bottom-banner', frameText: 'Scan to see our whole spring menu and order at your table' },
      { customLogoUrl: logoPngDataUrl(), hideDotsBehindLogo: false, errorCorrectionLevel: 'H', bgTransparent: true },
    ];
    for (const d of designs) {
      const design = { ...DEFAULT_DESIGN, ...d };
      expect(lib.renderSvg(SHORT_URL, design)).toBe(renderSvg(SHORT_URL, design));
      expect(lib.designWarnings(design)).toEqual(designWarnings(design));
    }
    expect(fontsRead.length).toBeGreaterThan(0);
  });
});

function stripComments(source: string): string {
  return source.replace(/\/\*[\s\S]*?\*\//g, '').replace(/(^|[^:'"`])\/\/.*$/gm, '$1');
}
