/**
 * Capacity benchmark: `npx tsx bench/write-units.ts` (~30 s). Starts its own local stack in memory, seeds a
 * product, a release and a license over HTTP, then calls a fresh edge handler (as a new container would) once
 * per operation, with a middleware on the handler's own table client that asks every request for
 * `ReturnConsumedCapacity: 'INDEXES'` and sums what DynamoDB answers: read and write units per operation,
 * split into the table and each index. These units are what on-demand bills (docs/cost.md).
 * DynamoDB Local answers every request with a ConsumedCapacity, but its figures for transactions do not follow
 * DynamoDB's published rules (it counts an index update as a delete and a put, and doubles index writes), so each
 * write is also computed from the items' sizes before and after it (bench/capacity/item-units.ts), side by side.
 * Exits non-zero if a validate that names a domain writes more than 1 write unit when it records the check.
 */
import { createEdgeHandler } from '../functions/edge/app.js';
import { startLocalStack } from '../infra/local/stack.js';
import { FUNCTION_CONFIG_SECTIONS, loadConfig } from '../shared/platform/config.js';
import type { HttpEvent, HttpResult } from '../shared/platform/http/types.js';
import { createLoadedDeps } from '../shared/platform/runtime.js';
import { computed, meterCapacity } from './capacity/accounting.js';
import { edgeEvent, seedTenant } from './support/fixtures.js';

/** The target of issue 10: recording a check is one small write, no index copy. */
const VALIDATE_WITH_DOMAIN_MAX_WRITE_UNITS = 1;
/** A caller of its own, so the bench's rate-limit buckets are not another's. */
const SOURCE_IP = '198.51.100.7';

async function main() {
  // Limits scaled far up: activate pays for its rate-limit writes, but is never refused here.
  const stack = await startLocalStack({ port: 0, dataDir: ':memory:', env: { EXPIRY_SWEEP_INTERVAL_MS: '0', RATE_LIMIT_SCALE: '1000000' } });
  let failed = false;
  try {
    const { keys, slug, releaseId } = await seedTenant(stack.url, { licenses: 1, seats: 1000 });
    const key = keys[0]!;
    const deps = await createLoadedDeps(loadConfig(process.env, FUNCTION_CONFIG_SECTIONS.edge), 'edge');
    const meter = meterCapacity(deps.clients, { endpoint: process.env.DYNAMODB_ENDPOINT!, tableName: process.env.TABLE_NAME! });
    const handler = createEdgeHandler(deps) as unknown as (e: HttpEvent, c: unknown) => Promise<HttpResult>;
    const measure = (e: HttpEvent) => meter.measure(async () => ({ statusCode: (await handler(e, {})).statusCode }));

    const domain = `units-${Date.now()}.example.com`; // not a staging pattern (*.example): a seat, as production sites take
    const validate = (body: Record<string, string>) => edgeEvent('POST', '/v1/licenses/validate', { body: { license_key: key, ...body }, sourceIp: SOURCE_IP });
    const updateQuery = { slug, license_key: key, version: '0.9' };
    // Caches (product by slug, releases) filled first, as in a warm container; the activated domain exists before its checks.
    await measure(validate({}));
    await measure(edgeEvent('GET', '/v1/wp/update-check', { query: updateQuery, sourceIp: SOURCE_IP }));
    const rows: [string, Awaited<ReturnType<typeof measure>>][] = [];
    rows.push(['validate (no domain)', await measure(validate({}))]);
    rows.push(['activate (new domain)', await measure(edgeEvent('POST', '/v1/licenses/activate', { body: { license_key: key, domain }, sourceIp: SOURCE_IP }))]);
    const recorded = await measure(validate({ domain }));
    rows.push(['validate + domain (check recorded)', recorded]);
    rows.push(['validate + domain (same minute)', await measure(validate({ domain }))]);
    rows.push(['deactivate (by domain)', await measure(edgeEvent('POST', '/v1/licenses/deactivate', { body: { license_key: key, domain }, sourceIp: SOURCE_IP }))]);
    rows.push(['update check (warm)', await measure(edgeEvent('GET', '/v1/wp/update-check', { query: updateQuery, sourceIp: SOURCE_IP }))]);
    rows.push(['download', await measure(edgeEvent('GET', `/v1/download/${releaseId}`, { query: { license_key: key }, sourceIp: SOURCE_IP }))]);

    console.log(`${'operation'.padEnd(36)} status  requests  read units  write units: computed  Local  (computed by table / index)`);
    for (const [name, units] of rows) {
      const where = [...units.computedBy].map(([at, n]) => `${at} ${n}`).join(', ');
      const unmeasured = units.unmeasured.length ? `  NOT MEASURED: ${units.unmeasured.join(', ')}` : '';
      console.log(
        `${name.padEnd(36)} ${String(units.statusCode).padStart(6)}  ${String(units.requests).padStart(8)}  ${units.read.toFixed(1).padStart(10)}  ${String(computed(units)).padStart(21)}  ${String(units.write).padStart(5)}  ${where && `(${where})`}${unmeasured}`,
      );
    }
    const unmeasured = rows.flatMap(([, units]) => units.unmeasured);
    console.log(
      unmeasured.length > 0
        ? `\nDynamoDB Local answered ${unmeasured.length} request(s) without ConsumedCapacity (${[...new Set(unmeasured)].join(', ')}): their writes are counted from item sizes only.`
        : '\nDynamoDB Local answered every request with its ConsumedCapacity (read units above are its figures).',
    );
    console.log('Write units "computed" follow DynamoDB\'s published rules from the items\' sizes; Local doubles index writes in transactions and counts an index update as two.');
    // Both figures must meet the target; a run that wrote nothing did not record the check.
    const worst = Math.max(recorded.write, computed(recorded));
    if (recorded.statusCode !== 200 || recorded.write === 0 || worst > VALIDATE_WITH_DOMAIN_MAX_WRITE_UNITS) {
      console.error(`validate + domain: ${worst} write unit(s) when it records the check: target 0 < units ≤ ${VALIDATE_WITH_DOMAIN_MAX_WRITE_UNITS}`);
      failed = true;
    } else {
      console.log(`validate + domain: ${worst} write unit(s) when it records the check (target ≤ ${VALIDATE_WITH_DOMAIN_MAX_WRITE_UNITS})`);
    }
    meter.stop();
  } finally {
    await stack.stop();
  }
  if (failed) process.exitCode = 1;
}

await main();
