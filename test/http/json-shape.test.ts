// The pre-parse pass over JSON bodies skips strings with the native search; it must judge
// every text as the character-at-a-time scan it replaced did.
import { describe, expect, it } from 'vitest';
import { jsonShapeProblem } from '../../src/http/request/json-depth.ts';

/** The scan as it was: every character read, a backslash skipping the next one. */
function reference(text: string, maxDepth: number, maxValues: number): 'depth' | 'values' | null {
  let depth = 0;
  let values = 0;
  let inString = false;
  for (let i = 0; i < text.length; i++) {
    const c = text[i];
    if (inString) {
      if (c === '\\') i++;
      else if (c === '"') inString = false;
    } else if (c === '"') inString = true;
    else if (c === ',') {
      if (++values > maxValues) return 'values';
    } else if (c === '{' || c === '[') {
      if (++depth > maxDepth) return 'depth';
      if (++values > maxValues) return 'values';
    } else if (c === '}' || c === ']') depth--;
  }
  return null;
}

describe('the JSON shape pass', () => {
  it('agrees with the character-at-a-time scan on random texts of quotes, backslashes, brackets and commas', () => {
    let seed = 7;
    const next = () => (seed = (seed * 1103515245 + 12345) % 2 ** 31) / 2 ** 31;
    const alphabet = ['"', '\\', '[', ']', '{', '}', ',', 'a', ' '];
    for (let n = 0; n < 20_000; n++) {
      const text = Array.from({ length: Math.floor(next() * 40) }, () => alphabet[Math.floor(next() * alphabet.length)]).join('');
      for (const [d, v] of [
        [3, 5],
        [32, 2_000],
      ] as const)
        expect(jsonShapeProblem(text, d, v), JSON.stringify(text)).toBe(reference(text, d, v));
    }
  });

  it('skips escaped quotes and brackets inside strings, and finds what follows them', () => {
    // x\" is an escaped quote: the string goes on; x\\" is an escaped backslash: it ends.
    expect(jsonShapeProblem('{"a":"x\\"[[[[[[[["}', 2, 100)).toBeNull();
    expect(jsonShapeProblem('["x\\\\",[[[]]]]', 3, 100)).toBe('depth');
    expect(jsonShapeProblem(`{"logo":"${'A'.repeat(1_000_000)}","n":[1,2,3]}`, 32, 3)).toBe('values');
    expect(jsonShapeProblem('"never closed [[[[[[', 2, 1)).toBeNull();
  });
});
