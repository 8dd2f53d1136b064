/** A step that failed: its cause is printed under it, and the run stops there (cleanup still runs). */
export class StepFailure extends Error {}

const NAME_WIDTH = 34;

const seconds = (ms: number) => (ms < 1000 ? `${Math.round(ms)} ms` : `${(ms / 1000).toFixed(1)} s`);

/** Why a step failed, in one line a vendor can act on (see service.ts for the HTTP causes). */
function causeOf(error: unknown): string {
  if (error instanceof Error) return error.constructor === Error || error instanceof StepFailure ? error.message : `${error.name}: ${error.message}`;
  return String(error);
}

/** Prints each step as it ends, with its time, and counts the failures. */
export class Report {
  readonly failed: string[] = [];

  constructor(private readonly print: (line: string) => void = console.log) {}

  line(text: string): void {
    this.print(text);
  }

  /** Runs one step; on failure prints its cause and throws a StepFailure (the run's later steps need this one). */
  async step<T>(name: string, run: () => Promise<T>, detail?: (value: T) => string): Promise<T> {
    const started = performance.now();
    try {
      const value = await run();
      this.print(`  ✓ ${name.padEnd(NAME_WIDTH)} ${seconds(performance.now() - started).padStart(7)}${detail ? `  ${detail(value)}` : ''}`);
      return value;
    } catch (error) {
      this.failed.push(name);
      this.print(`  ✗ ${name.padEnd(NAME_WIDTH)} ${seconds(performance.now() - started).padStart(7)}`);
      this.print(`      cause: ${causeOf(error)}`);
      throw new StepFailure(`${name} failed`, { cause: error });
    }
  }

  skipped(name: string, reason: string): void {
    this.print(`  - ${name.padEnd(NAME_WIDTH)} skipped: ${reason}`);
  }
}
