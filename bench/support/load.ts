/**
 * A load generator in a process of its own (`node --import tsx bench/support/load.ts '<json>'`), as a client on
 * another machine would be: the benchmark process then holds only the service (gateway and handlers), whose CPU
 * per request it reads with `process.cpuUsage`. Prints autocannon's figures as JSON on stdout, with this process's own
 * CPU (µs, in all).
 *
 * Options: `url`, `connections`, `duration` (s), extra request `headers`, and either `bodies` (JSON bodies sent in
 * turn) or `activateKeys` (license keys, each request activating one of them on a domain never used before).
 */
import autocannon from 'autocannon';

type LoadOptions = { url: string; connections: number; duration: number; bodies?: string[]; activateKeys?: string[]; headers?: Record<string, string> };

const options = JSON.parse(process.argv[2]!) as LoadOptions;
const headers = { 'content-type': 'application/json', ...options.headers };
let domain = 0;
const requests = options.activateKeys
  ? [
      {
        method: 'POST' as const,
        setupRequest: (request: object) => {
          const keys = options.activateKeys!;
          const body = { license_key: keys[Math.floor(Math.random() * keys.length)], domain: `site-${process.pid}-${domain++}.example.com` };
          return { ...request, headers, body: JSON.stringify(body) };
        },
      },
    ]
  : (options.bodies ?? []).map((body) => ({ method: 'POST' as const, headers, body }));

const result = await autocannon({ url: options.url, connections: options.connections, duration: options.duration, requests });
process.stdout.write(
  JSON.stringify({
    requests: result.requests.total,
    rps: result.requests.average,
    p50: result.latency.p50,
    p99: result.latency.p99,
    failures: result.non2xx + result.errors + result.timeouts,
    loadCpuMicros: (({ user, system }) => user + system)(process.cpuUsage()),
  }),
);
