import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { dirname, join, normalize } from 'node:path';
import GithubSlugger from 'github-slugger';
import { describe, expect, it } from 'vitest';

/** Every relative link of the project's documents names a file that exists and, in a Markdown file, a heading it has. */
const ROOT = new URL('../../../', import.meta.url).pathname;
const DOCUMENTS = ['README.md', 'CHANGELOG.md', ...readdirSync(join(ROOT, 'docs')).filter((f) => f.endsWith('.md')).map((f) => `docs/${f}`)].filter((f) =>
  existsSync(join(ROOT, f)),
);

/** The anchors GitHub gives a Markdown file's headings (outside code blocks). */
function anchorsOf(file: string): Set<string> {
  const slugger = new GithubSlugger();
  const text = readFileSync(join(ROOT, file), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
  return new Set([...text.matchAll(/^#{1,6}\s+(.+?)\s*#*$/gm)].map((match) => slugger.slug(match[1]!)));
}

describe('document links', () => {
  it.each(DOCUMENTS)('%s: every relative link resolves', (document) => {
    const text = readFileSync(join(ROOT, document), 'utf8').replace(/^```[\s\S]*?^```/gm, '');
    const broken: string[] = [];
    for (const [, target] of text.matchAll(/\]\(([^)\s]+)\)/g)) {
      if (/^[a-z]+:/i.test(target!)) continue;
      const [path, anchor] = target!.split('#') as [string, string | undefined];
      const file = path === '' ? document : normalize(join(dirname(document), path));
      if (!existsSync(join(ROOT, file))) broken.push(`${target} (no ${file})`);
      else if (anchor && file.endsWith('.md') && !anchorsOf(file).has(anchor)) broken.push(`${target} (no heading #${anchor} in ${file})`);
    }
    expect(broken).toEqual([]);
  });
});
