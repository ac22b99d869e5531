// Renders the reference gallery: one PNG per style in docs/gallery/, and
// docs/gallery.md showing them. Run: npx tsx scripts/gallery.ts
import { mkdirSync, writeFileSync } from 'node:fs';
import { join } from 'node:path';
import { CORNER_STYLES, DEFAULT_DESIGN, DOT_STYLES, PRESET_LOGOS, type QrDesign } from '../src/domain/design/design.ts';
import { parseLogoDataUrl } from '../src/domain/design/logo.ts';
import { renderPng } from '../src/render/index.ts';

const OUT = 'docs/gallery';
const DATA = 'http://localhost:3000/r/Ab3dE9z';
const SIZE = 360;

const LOGO_SVG =
  '<svg xmlns="http://www.w3.org/2000/svg" viewBox="0 0 100 100"><rect width="100" height="100" rx="24" fill="#f97316"/>' +
  '<path d="M30 72V28h24a15 15 0 0 1 0 30H30" fill="none" stroke="#fff" stroke-width="11" stroke-linejoin="round"/></svg>';

interface Entry {
  file: string;
  caption: string;
  design: Partial<QrDesign>;
}

interface Section {
  title: string;
  note: string;
  entries: Entry[];
}

function sections(): Section[] {
  const logo = parseLogoDataUrl('customLogoUrl', `data:image/svg+xml,${encodeURIComponent(LOGO_SVG)}`).dataUrl;
  return [
    {
      title: 'Dot styles',
      note: "`dotsStyle`. Rounded styles look at each module's four neighbours, so runs of modules flow together.",
      entries: DOT_STYLES.map((s) => ({ file: `dots-${s}`, caption: `\`${s}\``, design: { dotsStyle: s, color1: '#111827' } })),
    },
    {
      title: 'Corner squares and corner dots',
      note: '`cornerSquare` / `cornerDot`, shown with the same style for both.',
      entries: CORNER_STYLES.map((s) => ({
        file: `corners-${s}`,
        caption: `\`${s}\``,
        design: { cornerSquare: s, cornerDot: s, dotsStyle: 'rounded', color1: '#1e3a8a' },
      })),
    },
    {
      title: 'Colours',
      note: 'Gradients span the whole code; `gradientRotation` turns linear ones. Eye colour and a transparent background (shown on the page colour).',
      entries: [
        {
          file: 'gradient-linear',
          caption: 'linear, 45°',
          design: {
            isGradient: true,
            color1: '#1d4ed8',
            color2: '#9333ea',
            gradientRotation: 45,
            dotsStyle: 'extra-rounded',
            cornerSquare: 'extra-rounded',
            cornerDot: 'dot',
          },
        },
        {
          file: 'gradient-radial',
          caption: 'radial',
          design: {
            isGradient: true,
            gradientType: 'radial',
            color1: '#b91c1c',
            color2: '#111827',
            dotsStyle: 'classy-rounded',
            cornerSquare: 'classy-rounded',
            cornerDot: 'classy-rounded',
          },
        },
        {
          file: 'eye-colour',
          caption: 'custom eye colour',
          design: {
            customEyeColors: true,
            eyeColor: '#dc2626',
            color1: '#111827',
            dotsStyle: 'dots',
            cornerSquare: 'dot',
            cornerDot: 'dot',
          },
        },
        {
          file: 'transparent',
          caption: 'transparent background',
          design: { bgTransparent: true, color1: '#065f46', dotsStyle: 'rounded' },
        },
      ],
    },
    {
      title: 'Logos',
      note: "The eight preset icons (drawn by us) and a custom SVG logo. The logo box takes `logoSize` × the level's recovery share of the modules; dots behind it are hidden.",
      entries: [
        ...PRESET_LOGOS.filter((p) => p !== 'none').map((p) => ({
          file: `logo-${p}`,
          caption: `\`${p}\``,
          design: {
            presetLogo: p,
            dotsStyle: 'rounded' as const,
            cornerSquare: 'extra-rounded' as const,
            color1: '#0f172a',
            errorCorrectionLevel: 'H' as const,
          },
        })),
        {
          file: 'logo-custom',
          caption: 'custom SVG logo, margin 40',
          design: {
            customLogoUrl: logo,
            logoMargin: 40,
            logoSize: 0.5,
            errorCorrectionLevel: 'H',
            dotsStyle: 'classy',
            cornerSquare: 'classy',
            cornerDot: 'classy',
            color1: '#7c2d12',
          },
        },
      ],
    },
    {
      title: 'Frames',
      note: '`frameStyle` with `frameText`, `frameColor`, `frameTextColor`. The frame fits the width; long text shrinks to fit.',
      entries: [
        {
          file: 'frame-bottom-banner',
          caption: '`bottom-banner`',
          design: {
            frameStyle: 'bottom-banner',
            dotsStyle: 'rounded',
            cornerSquare: 'extra-rounded',
            cornerDot: 'dot',
            presetLogo: 'link',
          },
        },
        {
          file: 'frame-phone',
          caption: '`phone`',
          design: {
            frameStyle: 'phone',
            frameColor: '#1e293b',
            frameText: 'Scan to pay',
            dotsStyle: 'dots',
            cornerSquare: 'dot',
            cornerDot: 'dot',
            color1: '#1e293b',
          },
        },
        {
          file: 'frame-badge',
          caption: '`badge`, long text',
          design: {
            frameStyle: 'badge',
            frameColor: '#9333ea',
            frameText: "Scan me for today's menu and opening hours",
            isGradient: true,
            color1: '#6d28d9',
            color2: '#db2777',
            dotsStyle: 'classy-rounded',
            cornerSquare: 'classy-rounded',
            cornerDot: 'classy-rounded',
          },
        },
      ],
    },
  ];
}

function main(): void {
  mkdirSync(OUT, { recursive: true });
  const md = [
    '# Gallery',
    '',
    `Reference renders of the styled renderer (\`src/render/\`), ${SIZE} px wide, all encoding \`${DATA}\`.`,
    'Regenerate with `npx tsx scripts/gallery.ts`; every one of these styles is also decoded by zxing in `test/render/decode-matrix.test.ts`.',
    'Frame text is drawn as outlines of Inter Bold (SIL Open Font License 1.1, from the `@fontsource/inter` package), so it looks the same everywhere.',
    '',
  ];
  for (const section of sections()) {
    md.push(
      `## ${section.title}`,
      '',
      section.note,
      '',
      `| ${section.entries.map((e) => e.caption).join(' | ')} |`,
      `|${section.entries.map(() => ' :-: ').join('|')}|`,
    );
    const cells = section.entries.map((e) => {
      writeFileSync(join(OUT, `${e.file}.png`), renderPng(DATA, { ...DEFAULT_DESIGN, ...e.design }, { size: SIZE }));
      return `![${e.file}](gallery/${e.file}.png)`;
    });
    md.push(`| ${cells.join(' | ')} |`, '');
  }
  writeFileSync('docs/gallery.md', md.join('\n'));
  console.log(`wrote ${sections().reduce((n, s) => n + s.entries.length, 0)} images to ${OUT}/ and docs/gallery.md`);
}

main();
