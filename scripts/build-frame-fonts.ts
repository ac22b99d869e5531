// Builds packages/frame-fonts (the fonts frame text falls back to beyond Inter) and
// src/render/frame-font-coverage.ts (which file draws which code points).
//
// The Noto packages ship every weight twice (WOFF and WOFF2): Noto Sans SC alone is
// 73 MB packed. We keep one weight as WOFF, in the slices the packages already cut
// by Unicode range, so a render loads only the few files its text needs.
// Run after bumping a version below: `node --import tsx scripts/build-frame-fonts.ts`.
import { execFileSync } from 'node:child_process';
import { copyFileSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import * as hb from 'harfbuzzjs';
import { encodeCoverage } from '../src/render/font-coverage.ts';
import { woffToSfnt } from '../src/render/woff.ts';

const ROOT = new URL('..', import.meta.url).pathname;
const OUT = join(ROOT, 'packages/frame-fonts');
const PACKAGE = '@qrtrack/frame-fonts';

interface Source {
  pkg: string;
  version: string;
  /** Subsets to keep; 'all' keeps every slice (the CJK and emoji fonts are cut in numbered slices). */
  subsets: string[] | 'all';
  weight: 400 | 700;
  /** Keep only slices with a code point this accepts (Noto Sans KR: the slices with Hangul). */
  only?: (cp: number) => boolean;
}

const HANGUL = (cp: number) => (cp >= 0xac00 && cp <= 0xd7a3) || (cp >= 0x1100 && cp <= 0x11ff) || (cp >= 0x3130 && cp <= 0x318f);

/** Fallback order after Inter: the first font whose file has a character draws it. */
const SOURCES: Source[] = [
  { pkg: 'noto-sans-arabic', version: '5.3.0', subsets: ['arabic'], weight: 700 },
  { pkg: 'noto-sans-hebrew', version: '5.3.0', subsets: ['hebrew'], weight: 700 },
  { pkg: 'noto-sans-devanagari', version: '5.3.0', subsets: ['devanagari'], weight: 700 },
  { pkg: 'noto-sans-bengali', version: '5.3.0', subsets: ['bengali'], weight: 700 },
  { pkg: 'noto-sans-gurmukhi', version: '5.3.0', subsets: ['gurmukhi'], weight: 700 },
  { pkg: 'noto-sans-tamil', version: '5.3.0', subsets: ['tamil'], weight: 700 },
  { pkg: 'noto-sans-telugu', version: '5.3.0', subsets: ['telugu'], weight: 700 },
  { pkg: 'noto-sans-thai', version: '5.3.0', subsets: ['thai'], weight: 700 },
  { pkg: 'noto-sans-sc', version: '5.3.0', subsets: 'all', weight: 700 },
  { pkg: 'noto-sans-kr', version: '5.3.0', subsets: 'all', weight: 700, only: HANGUL },
  { pkg: 'noto-sans-symbols', version: '5.3.0', subsets: ['symbols'], weight: 700 },
  { pkg: 'noto-sans-symbols-2', version: '5.3.0', subsets: ['symbols', 'math', 'latin-ext', 'latin'], weight: 400 },
  { pkg: 'noto-sans-math', version: '5.3.0', subsets: ['latin'], weight: 400 },
  { pkg: 'noto-emoji', version: '5.3.2', subsets: 'all', weight: 700 },
];

/** Inter comes from its own npm package (already a dependency), first in the order. */
const INTER = ['latin', 'latin-ext', 'cyrillic', 'cyrillic-ext', 'greek', 'greek-ext', 'vietnamese'].map(
  (s) => `@fontsource/inter/files/inter-${s}-700-normal.woff`,
);

const require = createRequire(import.meta.url);

function main(): void {
  const work = mkdtempSync(join(tmpdir(), 'frame-fonts-'));
  rmSync(join(OUT, 'files'), { recursive: true, force: true });
  mkdirSync(join(OUT, 'files'), { recursive: true });
  const entries: { file: string; coverage: string }[] = [];
  for (const file of INTER) entries.push({ file, coverage: encodeCoverage(codePointsOf(readFileSync(require.resolve(file)))) });
  for (const src of SOURCES) {
    const dir = join(work, src.pkg);
    mkdirSync(dir);
    const tgz = execFileSync('npm', ['pack', `@fontsource/${src.pkg}@${src.version}`, '--silent'], { cwd: dir, encoding: 'utf8' }).trim();
    execFileSync('tar', ['xzf', tgz], { cwd: dir });
    const files = join(dir, 'package/files');
    const picked = readdirSync(files)
      .map((name) => ({ name, subset: subsetOf(name, src) }))
      .filter((f): f is { name: string; subset: string } => f.subset !== null)
      .sort((a, b) => order(a.subset, src) - order(b.subset, src));
    if (picked.length === 0) throw new Error(`${src.pkg}: no files picked`);
    for (const { name } of picked) {
      const cps = codePointsOf(readFileSync(join(files, name)));
      if (cps.length === 0 || (src.only && !cps.some(src.only))) continue;
      copyFileSync(join(files, name), join(OUT, 'files', name));
      entries.push({ file: `${PACKAGE}/files/${name}`, coverage: encodeCoverage(cps) });
    }
    copyFileSync(join(dir, 'package/LICENSE'), join(OUT, `LICENSE-${src.pkg}`));
  }
  rmSync(work, { recursive: true, force: true });
  writeManifest(entries);
}

function subsetOf(name: string, src: Source): string | null {
  const m = new RegExp(`^${src.pkg}-(.+)-${src.weight}-normal\\.woff$`).exec(name);
  if (!m?.[1]) return null;
  if (src.subsets === 'all') return m[1];
  return src.subsets.includes(m[1]) ? m[1] : null;
}

/** Named subsets in the order given; numbered slices highest first (the commonest characters). */
function order(subset: string, src: Source): number {
  if (src.subsets !== 'all') return src.subsets.indexOf(subset);
  const n = /^\[?(\d+)\]?$/.exec(subset);
  return n ? -Number(n[1]) : -1e6;
}

function codePointsOf(woff: Uint8Array): number[] {
  const face = new hb.Face(new hb.Blob(woffToSfnt(new Uint8Array(woff))));
  return [...face.collectUnicodes()];
}

function writeManifest(entries: { file: string; coverage: string }[]): void {
  const body = entries.map((e) => `  { file: '${e.file}', coverage: '${e.coverage}' },`).join('\n');
  writeFileSync(
    join(ROOT, 'src/render/frame-font-coverage.ts'),
    `// Generated by scripts/build-frame-fonts.ts: do not edit. Font files in fallback order and the\n` +
      `// code points each one draws (encodeCoverage in font-coverage.ts).\n` +
      `export const FRAME_FONT_FILES: readonly { file: string; coverage: string }[] = [\n${body}\n];\n`,
  );
  writeFileSync(
    join(OUT, 'package.json'),
    JSON.stringify(
      {
        name: PACKAGE,
        version: '1.0.0',
        private: true,
        description: 'One weight of the Noto fonts qrtrack draws frame text with, cut from @fontsource packages',
        license: 'OFL-1.1',
      },
      null,
      2,
    ) + '\n',
  );
}

main();
