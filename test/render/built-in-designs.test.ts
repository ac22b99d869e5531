// The studio's built-in designs are where new codes start: none may draw a warning the studio
// itself shows, and each must scan (issue #32: "Menu card" drew two warnings).
import { beforeAll, describe, expect, it } from 'vitest';
import { designWarnings, renderPng } from '../../src/render/index.ts';
import { BUILT_IN_DESIGNS } from '../../web/pages/studio/design-file.ts';
import { decodePng, prepareZxing } from './decode.ts';

const SHORT_URL = 'https://qr.example.com/r/AbCdE12';

describe('the built-in designs', () => {
  beforeAll(prepareZxing);
  for (const { name, design } of BUILT_IN_DESIGNS) {
    it(`${name}: no design warning, and it scans`, async () => {
      expect(designWarnings(design, SHORT_URL)).toEqual([]);
      expect(await decodePng(renderPng(SHORT_URL, design, { size: 600 }))).toBe(SHORT_URL);
    });
  }
});
