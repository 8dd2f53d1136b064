import { afterAll, vi } from 'vitest';

// The unit and integration files share a worker process (isolate: false in vitest.config.ts): what a file stubs or
// fakes ends with that file, so the next file in the worker starts from the real environment, globals and timers.
// (Vitest restores spies between files by itself; a file that mocks a module undoes it, see table-grants.test.ts.)
afterAll(() => {
  vi.unstubAllEnvs();
  vi.unstubAllGlobals();
  vi.useRealTimers();
});
