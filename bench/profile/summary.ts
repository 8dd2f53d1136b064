/**
 * What a V8 CPU profile (`.cpuprofile`, as `node --cpu-prof` writes it) says about where a request's CPU goes: the
 * share of each area, and the functions that spend the most themselves. A native frame (a hash) counts towards the
 * area of the JavaScript that called it. Idle time is left out, and so are socket writes (`writev`), reported apart:
 * the profiler samples wall time, and a write to DynamoDB Local on the same machine wakes the JVM that reads it, so
 * on a busy machine the write's share is mostly the wait for a core, not this process's CPU.
 */
import { readFileSync } from 'node:fs';

type ProfileNode = { id: number; callFrame: { functionName: string; url: string; lineNumber: number }; children?: number[] };
type Profile = { nodes: ProfileNode[]; startTime: number; samples: number[]; timeDeltas: number[] };

/** Areas, by the URL of the code (first match wins). */
const AREAS: [string, RegExp][] = [
  ['AWS SDK: request signing (SigV4)', /@smithy\/signature-v4|httpAuthSchemes/],
  ['AWS SDK: HTTP handler', /@smithy\/node-http-handler/],
  ['AWS SDK: everything else (middleware, endpoints, retries, serde)', /@smithy\/|@aws-sdk\//],
  ['ElectroDB', /electrodb/],
  ['local gateway', /\/infra\/local\//],
  ['Node HTTP and sockets', /^node:(_http_|net|internal\/stream|internal\/streams|stream|events|internal\/net)/],
  ['middy and its router', /@middy\//],
  ['zod', /\/zod\//],
  ['Powertools', /aws-lambda-powertools/],
  ['answer signing (Ed25519, digest)', /shared\/signing\//],
  ['service code (routes, domain, data)', /\/(shared|functions)\//],
  ['Node: promise jobs, timers, buffers, URLs', /^node:/],
];

export type ProfileSummary = { areas: [string, number][]; functions: [string, number][]; socketWrites: number };

/** Native frames whose time is not this process's CPU, or not only: reported apart. */
const SOCKET_WRITES = 'writev';

/** Summarizes the samples taken between `window.start` and `window.end` (the profile's own clock, µs), or all of them. */
export function summarize(file: string, window?: { start: number; end: number }, topFunctions = 10): ProfileSummary {
  const profile = JSON.parse(readFileSync(file, 'utf8')) as Profile;
  const byId = new Map(profile.nodes.map((node) => [node.id, node]));
  const parentOf = new Map<number, number>();
  for (const node of profile.nodes) for (const child of node.children ?? []) parentOf.set(child, node.id);
  // Native frames and Node's crypto count towards their caller (a hash towards SigV4 or the answer's signature).
  const areaOf = (id: number | undefined): string => {
    for (let at = id; at !== undefined; at = parentOf.get(at)) {
      const { url, functionName } = byId.get(at)!.callFrame;
      if (functionName === '(garbage collector)') return 'garbage collection';
      if (!url || url.startsWith('node:internal/crypto') || url === 'node:crypto') continue;
      return AREAS.find(([, pattern]) => pattern.test(url))?.[0] ?? 'other JavaScript';
    }
    return 'V8 and Node internals (microtasks, program)';
  };
  const areas = new Map<string, number>();
  const functions = new Map<string, number>();
  let total = 0;
  let socketWrites = 0;
  let at = profile.startTime;
  profile.samples.forEach((id, i) => {
    const time = profile.timeDeltas[i] ?? 0;
    at += time;
    if (window && (at < window.start || at > window.end)) return;
    const { functionName, url, lineNumber } = byId.get(id)!.callFrame;
    if (functionName === '(idle)') return;
    if (functionName === SOCKET_WRITES && !url) {
      socketWrites += time;
      return;
    }
    total += time;
    const area = areaOf(id);
    areas.set(area, (areas.get(area) ?? 0) + time);
    const where = url ? ` ${url.replace(/^.*node_modules\//, '').replace(/^file:\/\/.*?\/(shared|functions)\//, '$1/')}:${lineNumber + 1}` : '';
    const name = `${functionName || '(anonymous)'}${where}`;
    functions.set(name, (functions.get(name) ?? 0) + time);
  });
  const shares = (map: Map<string, number>) => [...map].sort((a, b) => b[1] - a[1]).map(([name, time]): [string, number] => [name, time / total]);
  return { areas: shares(areas), functions: shares(functions).slice(0, topFunctions), socketWrites: socketWrites / (total + socketWrites) };
}

export function printSummary(title: string, summary: ProfileSummary): void {
  const percent = (share: number) => `${(share * 100).toFixed(1)}%`.padStart(6);
  console.log(`\n${title}: CPU by area (socket writes, ${percent(summary.socketWrites).trim()} of the profile's busy time, left out)`);
  for (const [area, share] of summary.areas) if (share >= 0.005) console.log(`  ${percent(share)}  ${area}`);
  console.log(`${title}: functions by their own CPU`);
  for (const [name, share] of summary.functions) console.log(`  ${percent(share)}  ${name}`);
}
