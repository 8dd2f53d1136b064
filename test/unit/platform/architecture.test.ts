import { execFile } from 'node:child_process';
import { readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { createRequire } from 'node:module';
import { promisify } from 'node:util';
import { describe, expect, it } from 'vitest';

/** The layering of shared/ (docs/architecture.md): the table the lint enforces, the drawing, and the lint itself. */
const ROOT = new URL('../../../', import.meta.url).pathname;
const { CONTEXT_DEPENDENCIES } = createRequire(import.meta.url)('../../../.dependency-cruiser.cjs') as { CONTEXT_DEPENDENCIES: Record<string, string[]> };
const CONTEXTS = Object.keys(CONTEXT_DEPENDENCIES);

/** The Mermaid graph of the table: every edge but those into platform, which every context may import. */
function contextGraph(): string {
  const edges = CONTEXTS.flatMap((from) => CONTEXT_DEPENDENCIES[from]!.filter((to) => to !== 'platform').map((to) => `  ${from} --> ${to}`));
  return ['```mermaid', 'graph BT', '  messaging --> platform', ...edges, '```'].join('\n');
}

describe('the contexts of shared/', () => {
  it('are the folders of shared/, at most ten, each with an index.ts', () => {
    const entries = readdirSync(`${ROOT}shared`);
    expect(entries.length).toBeLessThanOrEqual(10);
    expect([...entries].sort()).toEqual([...CONTEXTS].sort());
    for (const context of CONTEXTS) expect(readdirSync(`${ROOT}shared/${context}`)).toContain('index.ts');
  });

  it('form a DAG in which platform imports no context', () => {
    expect(CONTEXT_DEPENDENCIES.platform).toEqual([]);
    // Each context may depend only on contexts listed before it: the table's order is a topological order.
    CONTEXTS.forEach((context, index) => {
      for (const dependency of CONTEXT_DEPENDENCIES[context]!) expect(CONTEXTS.indexOf(dependency), `${context} → ${dependency}`).toBeLessThan(index);
    });
  });

  it('are drawn in docs/architecture.md as the table says', () => {
    const doc = readFileSync(`${ROOT}docs/architecture.md`, 'utf8');
    const drawn = /<!-- context-graph:start[^>]*-->\n([\s\S]*?)\n<!-- context-graph:end -->/.exec(doc)?.[1];
    expect(drawn, 'docs/architecture.md, between its context-graph markers').toBe(contextGraph());
  });

  it('are held by `npm run lint`: an import across a forbidden boundary or past an index.ts fails with the rule', async () => {
    const probe = `shared/catalog/lint-probe-${process.pid}.ts`;
    writeFileSync(`${ROOT}${probe}`, "export { validateLicense } from '../licensing/index.js';\nexport { transact } from '../platform/data/writes.js';\n");
    try {
      const run = promisify(execFile)('node_modules/.bin/depcruise', ['--config', '.dependency-cruiser.cjs', '--max-depth', '1', probe], { cwd: ROOT });
      const failure = (await run.then(() => undefined, (error: { code: number; stdout: string }) => error))!;
      expect(failure?.code, 'depcruise exits non-zero on a violation').toBeGreaterThan(0);
      expect(failure.stdout).toContain('context-catalog');
      expect(failure.stdout).toContain('through-index');
    } finally {
      rmSync(`${ROOT}${probe}`, { force: true });
    }
  }, 60_000);
});
