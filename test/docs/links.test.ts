// Every relative link in README.md and docs/ leads somewhere: a moved or renamed file, or a
// renamed heading, breaks the test instead of a reader's click.
import fs from 'node:fs';
import path from 'node:path';
import { describe, expect, it } from 'vitest';
import { tempDir } from '../support/test-app.ts';

const ROOT = path.resolve(import.meta.dirname, '../..');

/** The Markdown files to check: README.md and every .md under docs/. */
function markdownFiles(root: string): string[] {
  const found = [path.join(root, 'README.md')];
  const walk = (dir: string) => {
    for (const entry of fs.readdirSync(dir, { withFileTypes: true })) {
      const full = path.join(dir, entry.name);
      if (entry.isDirectory()) walk(full);
      else if (entry.name.endsWith('.md')) found.push(full);
    }
  };
  walk(path.join(root, 'docs'));
  return found;
}

/** The text outside fenced code blocks and inline code, where links are links. */
function prose(markdown: string): string {
  return markdown.replace(/^(```|~~~)[^\n]*\n[\s\S]*?^\1[^\n]*$/gm, '').replace(/`[^`\n]*`/g, '');
}

/** Link targets: inline links and images `[text](target "title")` and references `[x]: target`. */
function linkTargets(markdown: string): string[] {
  const text = prose(markdown);
  const inline = [...text.matchAll(/\]\(\s*<?([^)\s>]+)>?(?:\s+"[^"]*")?\s*\)/g)].map((m) => m[1] as string);
  const references = [...text.matchAll(/^\s*\[[^\]]+\]:\s*<?(\S+?)>?(?:\s+"[^"]*")?\s*$/gm)].map((m) => m[1] as string);
  return [...inline, ...references];
}

/** GitHub's heading anchors: lower case, punctuation dropped, spaces to hyphens, repeats numbered. */
function anchors(markdown: string): Set<string> {
  const seen = new Map<string, number>();
  const result = new Set<string>();
  for (const m of prose(markdown).matchAll(/^#{1,6}\s+(.+?)\s*#*\s*$/gm)) {
    const base = (m[1] as string)
      .replace(/\[([^\]]*)\]\([^)]*\)/g, '$1')
      .toLowerCase()
      .replace(/[^\p{L}\p{N}\s_-]/gu, '')
      .replace(/\s/g, '-');
    const n = seen.get(base) ?? 0;
    seen.set(base, n + 1);
    result.add(n === 0 ? base : `${base}-${n}`);
  }
  // Explicit anchors (<a id="…"> or <a name="…">) count too.
  for (const m of markdown.matchAll(/<a\s+(?:id|name)="([^"]+)"/g)) result.add(m[1] as string);
  return result;
}

/** Every relative link of `files` that leads to no file, or to no heading of its file: "file: target". */
function brokenLinks(root: string, files: readonly string[]): string[] {
  const broken: string[] = [];
  for (const file of files) {
    const markdown = fs.readFileSync(file, 'utf8');
    for (const target of linkTargets(markdown)) {
      if (/^[a-z][a-z0-9+.-]*:/i.test(target)) continue; // https:, mailto:, data:: not ours to check
      const [rawPath = '', anchor] = target.split('#', 2) as [string, string | undefined];
      const linked = rawPath === '' ? file : path.resolve(path.dirname(file), decodeURIComponent(rawPath));
      const where = `${path.relative(root, file)}: ${target}`;
      if (!fs.existsSync(linked)) {
        broken.push(where);
        continue;
      }
      if (anchor && linked.endsWith('.md') && !anchors(fs.readFileSync(linked, 'utf8')).has(anchor))
        broken.push(`${where} (no such heading)`);
    }
  }
  return broken;
}

describe('links in the README and docs/', () => {
  it('lead to files that exist, and to headings that exist', () => {
    const files = markdownFiles(ROOT);
    expect(files.length).toBeGreaterThan(10);
    expect(brokenLinks(ROOT, files)).toEqual([]);
  });

  it('finds a link to a missing file, a missing heading, and ignores links in code', () => {
    const dir = tempDir();
    try {
      fs.mkdirSync(path.join(dir, 'docs'));
      fs.writeFileSync(path.join(dir, 'docs/a.md'), '# A file\n\n## Render budget: CPU\n');
      fs.writeFileSync(
        path.join(dir, 'README.md'),
        [
          '# Front door',
          '[ok](docs/a.md) [ok](docs/a.md#render-budget-cpu) [ok](#front-door) [web](https://example.com/x.md)',
          '[gone](docs/missing.md) ![gone](docs/img.png) [no heading](docs/a.md#render-budget)',
          '`[in code](docs/nope.md)`',
          '```md\n[in a block](docs/nope.md)\n```',
        ].join('\n'),
      );
      expect(brokenLinks(dir, markdownFiles(dir))).toEqual([
        'README.md: docs/missing.md',
        'README.md: docs/img.png',
        'README.md: docs/a.md#render-budget (no such heading)',
      ]);
    } finally {
      fs.rmSync(dir, { recursive: true, force: true });
    }
  });
});
