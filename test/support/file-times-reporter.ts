import { appendFileSync } from 'node:fs';
import { relative } from 'node:path';
import type { Reporter, TestModule } from 'vitest/node';

/**
 * Appends one line per test file to the file named by `TEST_FILE_TIMES`: its whole time in milliseconds (set-up, import,
 * hooks and tests), its project and its path, tab-separated. `.ci/run` prints the ten slowest of all its runs.
 */
export default class FileTimesReporter implements Reporter {
  onTestRunEnd(testModules: ReadonlyArray<TestModule>): void {
    const output = process.env.TEST_FILE_TIMES;
    if (!output) return;
    const lines = testModules.map((module) => {
      const { prepareDuration, setupDuration, collectDuration, duration } = module.diagnostic();
      const total = Math.round(prepareDuration + setupDuration + collectDuration + duration);
      return `${total}\t${module.project.name}\t${relative(process.cwd(), module.moduleId)}\n`;
    });
    appendFileSync(output, lines.join(''));
  }
}
