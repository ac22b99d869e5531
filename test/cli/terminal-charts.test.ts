import { describe, expect, it } from 'vitest';
import { bar, clip, sparkline, table } from '../../src/cli/terminal-charts.ts';

describe('terminal charts', () => {
  it('draws a sparkline with the busiest day full and any scan above the floor', () => {
    expect(sparkline([0, 1, 2, 4, 8, 0, 100])).toBe('▁▂▂▂▂▁█');
    expect(sparkline([0, 0, 0])).toBe('▁▁▁');
    expect(sparkline([3, 6])).toBe('▅█');
  });

  it('draws bars proportional to the largest value, never empty above zero', () => {
    expect(bar(10, 10, 20)).toBe('█'.repeat(20));
    expect(bar(5, 10, 20)).toBe('█'.repeat(10));
    expect(bar(1, 1000, 20)).toBe('█');
    expect(bar(0, 10)).toBe('');
  });

  it('aligns columns by characters, not bytes, and clips long text on one line', () => {
    expect(
      table([
        ['ä', 'x'],
        ['long', 'y'],
      ]),
    ).toEqual(['ä     x', 'long  y']);
    expect(clip('a\nb  c', 10)).toBe('a b c');
    expect(clip('abcdefghijkl', 5)).toBe('abcd…');
  });
});
