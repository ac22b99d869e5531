// npm run scan-lab [-- --extra 150] [-- --decoders zxing,jsqr,zxing-denoise] [-- --no-anchor] [-- --no-colours] [-- --json out.json]
// The full camera test: every design of the matrix × every camera degradation × each
// decoder, with the ceiling (a plain code) and the anchor (qr-code-styling) measured
// in the same run. Prints one table per decoder and whether the goals hold.
import { writeFileSync } from 'node:fs';
import { parseArgs } from 'node:util';
import { DECODERS, type DecoderName } from '../test/camera/decoders.ts';
import { NOISE_FIELDS } from '../test/camera/degradations.ts';
import { cameraDesigns, FACTORS, type Factor } from '../test/camera/designs.ts';
import { breakdown, formatTable, goalMisses, runLab } from '../test/camera/lab.ts';

const { values } = parseArgs({
  options: {
    extra: { type: 'string', default: '150' },
    decoders: { type: 'string' },
    'no-anchor': { type: 'boolean', default: false },
    'no-colours': { type: 'boolean', default: false },
    json: { type: 'string' },
  },
});
const withColours = !values['no-colours'];
const decoders = (values.decoders?.split(',') ?? [...DECODERS]) as DecoderName[];
const designs = cameraDesigns(Number(values.extra));
const started = Date.now();
const outcomes = await runLab(designs, {
  decoders,
  anchor: !values['no-anchor'],
  colours: withColours,
  onDesign: (done, total) => {
    if (done % 10 === 0 || done === total)
      process.stderr.write(`${done}/${total} designs, ${Math.round((Date.now() - started) / 1000)} s\n`);
  },
});
const coloursNote = withColours
  ? ", colours = plain square-module code in the design's colours (not in the goals: what the palette alone costs)"
  : '';
console.log(
  `${designs.length} designs × ${new Set(outcomes.map((o) => o.degradation)).size} degradations (each noise row read under ${NOISE_FIELDS} noise fields); rates in %; ceiling = plain black square-module code, anchor = qr-code-styling${coloursNote}\n`,
);
const misses: string[] = [];
for (const dec of decoders) {
  const rows = breakdown(outcomes, dec, Object.keys(FACTORS) as Factor[]);
  console.log(formatTable(rows, dec, withColours) + '\n');
  misses.push(...goalMisses(rows, dec));
}
console.log(misses.length ? `Goals missed:\n- ${misses.join('\n- ')}` : 'All goals hold.');
// The same goals over the degradations without sensor noise: where the misses above come from.
const calm = outcomes.filter((o) => !o.degradation.includes('noise'));
const calmMisses = decoders.flatMap((dec) => goalMisses(breakdown(calm, dec, Object.keys(FACTORS) as Factor[]), dec));
console.log(
  calmMisses.length ? `\nWithout the noise rows, goals missed:\n- ${calmMisses.join('\n- ')}` : '\nWithout the noise rows, all goals hold.',
);
if (values.json) writeFileSync(values.json, JSON.stringify(outcomes.map((o) => ({ ...o, design: o.design.labels }))));
