import { withAudit } from '../../identity/index.js';
import { counterNames, counterUpdates, readAll, type Slot, transact, type TransactionEntities } from '../../platform/data/index.js';
import { type CustomerItem, nameSearchOf } from '../../customers/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { type Deps, newId } from '../../platform/index.js';
import { type Environment, expiryItemChanges, type LicenseItem, machineHoldKey, stagingRules } from '../../licensing/index.js';
import type { StorageDeps } from '../../platform/storage/index.js';
import { FileProblem } from './file-problem.js';
import { importFormat } from './formats.js';
import { readImportFile } from './import-files.js';
import { importErrors, LISTED_ERRORS, readImportJob, toImport, type ImportJobItem } from './import-jobs.js';
import type { ImportQueue } from './import-queue.js';
import { checkedLicense, type ImportLicense } from './row-checks.js';
import type { RowResult } from './rows.js';
import type { ImportTarget } from './target.js';

export type ImportDeps = Pick<Deps, 'data' | 'clock'> & StorageDeps & { queue: ImportQueue };

/** Items of one transaction at most (DynamoDB's limit is 100): room is kept for the counters, the job and the product check. */
const ITEM_BUDGET = 84;
/** Rows of one batch at most. */
const WINDOW_ROWS = 40;
/** Rows whose keys and e-mails are read at once ahead of the batches (one `BatchGetItem` of each, 100 keys at most). */
const READ_ROWS = 100;
/** Rounds of one batch refused because a key or an e-mail was taken meanwhile, before the worker gives the message back. */
const MAX_BATCH_ROUNDS = 5;

/** One row's part of a batch, decided from the row and what the table holds. */
type Step =
  | { kind: 'none' }
  | { kind: 'skip' }
  | { kind: 'error'; row: number; message: string }
  | { kind: 'license'; license: ImportLicense };

/**
 * What the worker knows for the whole run: the rows, each checked once, the target, and what the table held when
 * the rows' keys and e-mails were read ahead (a transaction's conditions hold it still; a refused one reads again).
 */
type Run = {
  job: ImportJobItem;
  steps: Step[];
  target: ImportTarget;
  /** E-mails known to name a customer, with its id. */
  customers: Map<string, string>;
  /** E-mails read as naming no customer. */
  freeEmails: Set<string>;
  /** Keys read as taken. */
  taken: Set<string>;
  /** Rows before this one have had their keys and e-mails read; `reading`: the read in flight, if any. */
  readUpTo: number;
  reading?: Promise<void>;
};

async function loadTarget(deps: ImportDeps, job: ImportJobItem): Promise<ImportTarget | undefined> {
  const { data: product } = await deps.data.entities.product.get({ productId: job.productId }).go({ consistent: true });
  if (!product || product.tenantId !== job.tenantId || product.deletedAt) return undefined;
  const { data: plans } = await deps.data.entities.plan.query.byProduct({ productId: product.productId }).go({ pages: 'all' });
  return {
    tenantId: job.tenantId,
    productId: product.productId,
    plansBySlug: new Map(plans.map((plan) => [plan.slug, { planId: plan.planId, siteLimit: plan.siteLimit, channel: plan.channel }])),
    staging: stagingRules(product.stagingPatterns, product.stagingActivationLimit),
  };
}

async function failJob(deps: ImportDeps, job: ImportJobItem, failure: string): Promise<void> {
  const now = deps.clock.now().toISOString();
  await deps.data.entities.importJob
    .patch({ importId: job.importId })
    .set({ status: 'failed', failure, finishedAt: now, updatedAt: now })
    .where(({ status }, { eq }) => `${eq(status, 'queued')} OR ${eq(status, 'running')}`)
    .go()
    .catch(() => undefined); // another worker ended it first
}

/** The file read in its format, or why it cannot be. */
async function readRows(deps: ImportDeps, job: ImportJobItem): Promise<RowResult[] | string> {
  const text = await readImportFile(deps, job.fileKey);
  if (text === undefined) return 'The import file is gone';
  try {
    return importFormat(job.format, () => deps.clock.now()).read(text);
  } catch (error) {
    if (error instanceof FileProblem) return error.message;
    throw error;
  }
}

/**
 * Runs an import from its cursor to the end of its file, or until `timeLeftMs()` says the invocation is about to end
 * (then it queues the import again). Each batch of rows is one transaction with the job's cursor and counts, so the
 * import can stop anywhere (a crash, a timeout) and go on where it stopped, and a second worker given the same import
 * is refused instead of writing rows twice. A dry run takes the same steps and writes only its own progress.
 */
export async function runImport(deps: ImportDeps, importId: string, timeLeftMs: () => number, handOverMs: number): Promise<void> {
  let job = await readImportJob(deps, importId);
  if (!job || job.status === 'done' || job.status === 'failed') return;
  const rows = await readRows(deps, job);
  if (typeof rows === 'string') return failJob(deps, job, rows);
  const target = await loadTarget(deps, job);
  if (!target) return failJob(deps, job, 'The product was deleted');
  if (job.status === 'queued') {
    const now = deps.clock.now().toISOString();
    await deps.data.entities.importJob
      .patch({ importId })
      .set({ status: 'running', rows: rows.length, updatedAt: now })
      .where(({ status }, { eq }) => eq(status, 'queued'))
      .go()
      .catch(() => undefined);
    job = await readImportJob(deps, importId);
    if (!job || job.status !== 'running') return;
  }
  const run: Run = { job, steps: checkedSteps(rows, target, deps.clock.now()), target, customers: new Map(), freeEmails: new Set(), taken: new Set(), readUpTo: 0 };
  while (run.job.cursor < rows.length) {
    if (timeLeftMs() < handOverMs) return deps.queue.send(importId);
    const next = await runBatch(deps, run);
    if (!next) return;
    run.job = next;
  }
  await finish(deps, run.job);
}

/** Each row's step from the file alone: a bad row, or a license (skipped when its key came in an earlier row). */
function checkedSteps(rows: RowResult[], target: ImportTarget, now: Date): Step[] {
  const keys = new Set<string>();
  return rows.map((result): Step => {
    if ('ignored' in result) return { kind: 'none' };
    if ('error' in result) return { kind: 'error', row: result.row, message: result.error };
    const key = result.license.licenseKey.trim();
    const repeated = keys.has(key);
    keys.add(key);
    const license = checkedLicense(result.row, result.license, target, now);
    if (typeof license === 'string') return { kind: 'error', row: result.row, message: license };
    return repeated ? { kind: 'skip' } : { kind: 'license', license };
  });
}

/** Reads, in one batch read each, the keys and the not yet known e-mails of the rows from `run.readUpTo` on. */
async function readAhead(deps: ImportDeps, run: Run): Promise<void> {
  const from = run.readUpTo;
  const to = Math.min(from + READ_ROWS, run.steps.length);
  run.readUpTo = to;
  const licenses = run.steps.slice(from, to).flatMap((step) => (step.kind === 'license' ? [step.license] : []));
  const emails = [...new Set(licenses.map((license) => license.customerEmail))].filter((email) => !run.customers.has(email) && !run.freeEmails.has(email));
  const [existing, holders] = await Promise.all([
    readAll(licenses.map(({ licenseKey }) => ({ licenseKey })), (keys) => deps.data.entities.license.get(keys).go({ consistent: true })),
    readAll(emails.map((email) => ({ tenantId: run.target.tenantId, email })), (keys) => deps.data.entities.customerEmail.get(keys).go({ consistent: true })),
  ]);
  for (const item of existing) run.taken.add(item.licenseKey);
  for (const email of emails) run.freeEmails.add(email);
  for (const holder of holders) {
    run.freeEmails.delete(holder.email);
    run.customers.set(holder.email, holder.customerId);
  }
}

/** Waits for the read in flight, then reads on until the rows from `from` up to `to` are read. */
async function readTable(deps: ImportDeps, run: Run, from: number, to: number): Promise<void> {
  await run.reading;
  run.reading = undefined;
  if (run.readUpTo < from) run.readUpTo = from;
  while (run.readUpTo < Math.min(to, run.steps.length)) await readAhead(deps, run);
}

/** Starts reading the next rows while a batch is written, once fewer than a batch's rows are left read. */
function readSoon(deps: ImportDeps, run: Run, end: number): void {
  if (run.reading || run.readUpTo >= run.steps.length || run.readUpTo - end >= WINDOW_ROWS) return;
  const reading = readAhead(deps, run);
  // Its failure reaches the next batch, which awaits it; none may come if the write fails first.
  reading.catch(() => undefined);
  run.reading = reading;
}

/** Steps of the rows from `start`, as many as fit in one transaction; `end` is the first row not taken. */
async function planBatch(deps: ImportDeps, run: Run, start: number) {
  await readTable(deps, run, start, start + WINDOW_ROWS);
  const now = deps.clock.now();
  const steps: Step[] = [];
  const newCustomers = new Set<string>();
  const batchEmails = new Set<string>();
  let items = 0;
  let errors = run.job.errorCount;
  for (const step of run.steps.slice(start, start + WINDOW_ROWS)) {
    let cost = 0;
    if (step.kind === 'error') cost = errors < LISTED_ERRORS ? 1 : 0;
    const taken = step.kind === 'license' && run.taken.has(step.license.licenseKey);
    if (step.kind === 'license' && !taken && !run.job.dryRun) {
      const { license } = step;
      const customer = batchEmails.has(license.customerEmail) ? 0 : run.customers.has(license.customerEmail) ? 1 : 2;
      // An active license with an expiry adds its expiry and reminder items.
      cost = 2 + (license.status === 'active' && license.expiresAt ? 2 : 0) + 2 * holdersOf(license).length + customer;
    }
    if (steps.length > 0 && items + cost > ITEM_BUDGET) break;
    items += cost;
    if (step.kind === 'error') errors++;
    if (step.kind === 'license') {
      if (taken) {
        steps.push({ kind: 'skip' });
        continue;
      }
      batchEmails.add(step.license.customerEmail);
      if (!run.customers.has(step.license.customerEmail)) newCustomers.add(step.license.customerEmail);
    }
    steps.push(step);
  }
  return { steps, end: start + steps.length, newCustomers, now };
}

/** One batch: planned, then written in one transaction while the next rows are read. Answers the job as it now stands, or undefined to stop. */
async function runBatch(deps: ImportDeps, run: Run): Promise<ImportJobItem | undefined> {
  for (let round = 0; round < MAX_BATCH_ROUNDS; round++) {
    const start = run.job.cursor;
    const { steps, end, newCustomers, now } = await planBatch(deps, run, start);
    const write = batchWrites(run, steps, newCustomers, now);
    readSoon(deps, run, end);
    const outcome = await transact(deps.data, (tx) => write.slots(tx, start, end));
    if (outcome.committed) {
      for (const [email, customerId] of write.created) {
        run.freeEmails.delete(email);
        run.customers.set(email, customerId);
      }
      return { ...run.job, cursor: end, errorCount: run.job.errorCount + write.counts.errorCount };
    }
    // What was read may be out of date: read again from the batch on.
    await run.reading;
    run.reading = undefined;
    run.readUpTo = start;
    run.taken.clear();
    run.freeEmails.clear();
    if (outcome.refused('job')) {
      // Another worker moved the import on, or it ended: go on from what the table says.
      const job = await readImportJob(deps, run.job.importId);
      return job?.status === 'running' ? job : undefined;
    }
    if (outcome.refused('product')) {
      await failJob(deps, run.job, 'The product was deleted');
      return undefined;
    }
    // A key or an e-mail was taken since the batch read them: read again and decide again.
    for (const email of [...run.customers.keys()]) if (outcome.refused(`customer:${email}`)) run.customers.delete(email);
  }
  throw new Error(`import ${run.job.importId}: rows from ${run.job.cursor} kept conflicting with concurrent writes`);
}

/**
 * What an imported license's activations hold, each keyed as the API keys it: its sites by domain, then its devices
 * by `machine:<fingerprint>` (production: a seat each).
 */
function holdersOf(license: ImportLicense): { domain: string; environment: Environment; machine?: string; name?: string; platform?: string }[] {
  return [
    ...license.sites,
    ...license.machines.map(({ machine, name, platform }) => ({ domain: machineHoldKey(machine), environment: 'production' as const, machine, name, platform })),
  ];
}

/** The transaction of a batch: its licenses with their customers and sites, the counters, the bad rows, the job's move. */
function batchWrites(run: Run, steps: Step[], newCustomers: Set<string>, now: Date) {
  const { target, job } = run;
  const nowIso = now.toISOString();
  const counts = { licenses: 0, customers: 0, activations: 0, skipped: 0, errorCount: 0 };
  const licenseCounters = new Map<string, number>();
  const created = new Map<string, string>();
  const errors: { row: number; message: string }[] = [];
  const licenses: { item: LicenseItem; license: ImportLicense; customer?: CustomerItem }[] = [];
  for (const step of steps) {
    if (step.kind === 'skip') counts.skipped++;
    if (step.kind === 'error') {
      if (job.errorCount + counts.errorCount < LISTED_ERRORS) errors.push({ row: step.row, message: step.message });
      counts.errorCount++;
    }
    if (step.kind !== 'license') continue;
    const { license } = step;
    counts.licenses++;
    const holders = holdersOf(license);
    counts.activations += holders.length;
    for (const name of counterNames.licenses(target.productId, license.status)) licenseCounters.set(name, (licenseCounters.get(name) ?? 0) + 1);
    const existing = run.customers.get(license.customerEmail) ?? created.get(license.customerEmail);
    let customer: CustomerItem | undefined;
    if (!existing && newCustomers.has(license.customerEmail)) {
      customer = newCustomer(target.tenantId, license, nowIso);
      created.set(license.customerEmail, customer.customerId);
      counts.customers++;
    }
    const staging = license.sites.filter((site) => site.environment === 'staging').length;
    const item: LicenseItem = {
      licenseKey: license.licenseKey,
      licenseId: newId('lic'),
      tenantId: target.tenantId,
      productId: target.productId,
      planId: license.planId,
      customerId: existing ?? customer!.customerId,
      customerEmail: license.customerEmail,
      customerName: license.customerName,
      status: license.status,
      seats: license.seats,
      activatedCount: holders.length - staging,
      stagingCount: staging > 0 ? staging : undefined,
      expiresAt: license.expiresAt,
      channel: license.channel,
      floating: license.floating,
      leaseSeconds: license.leaseSeconds,
      createdAt: license.createdAt ?? nowIso,
      updatedAt: nowIso,
    };
    licenses.push({ item, license, customer });
  }

  const slots = (tx: TransactionEntities, start: number, end: number): Record<string, Slot> => {
    const slots: Record<string, Slot> = {
      job: tx.importJob
        .patch({ importId: job.importId })
        .set({ cursor: end, updatedAt: nowIso })
        .add({ licenses: counts.licenses, customers: counts.customers, activations: counts.activations, skipped: counts.skipped, errorCount: counts.errorCount })
        .where(({ cursor, status }, { eq }) => `${eq(cursor, start)} AND ${eq(status, 'running')}`)
        .commit(),
      errors: errors.map((error) => tx.importError.put({ importId: job.importId, ...error }).commit()),
    };
    if (job.dryRun || licenses.length === 0) return slots;
    slots.product = tx.product
      .check({ productId: target.productId })
      .where(({ deletedAt }, { notExists }) => notExists(deletedAt))
      .commit();
    slots.counters = [
      ...[...licenseCounters].flatMap(([name, delta]) => counterUpdates(tx.counter, target.tenantId, [name], delta)),
      ...(counts.activations > 0 ? counterUpdates(tx.counter, target.tenantId, counterNames.activations('active'), counts.activations) : []),
      ...(counts.customers > 0 ? counterUpdates(tx.counter, target.tenantId, counterNames.customers(), counts.customers) : []),
    ];
    const checked = new Set<string>();
    licenses.forEach(({ item, license, customer }, index) => {
      slots[`license:${index}`] = [
        // Only if the key is still free.
        tx.license.create(item).commit(),
        tx.licenseRef.create({ licenseId: item.licenseId, licenseKey: item.licenseKey, tenantId: item.tenantId }).commit(),
        ...expiryItemChanges(tx, item, undefined, item),
        ...holdersOf(license).flatMap(({ domain, environment, ...machine }) => {
          const activationId = newId('act');
          return [
            tx.activation
              .create({
                activationId,
                licenseId: item.licenseId,
                tenantId: item.tenantId,
                productId: item.productId,
                domain,
                ...machine,
                ipAddress: '',
                status: 'active',
                environment,
                activatedAt: nowIso,
              })
              .commit(),
            tx.activeDomain.create({ licenseId: item.licenseId, domain, activationId, activatedAt: nowIso, environment }).commit(),
          ];
        }),
      ];
      const email = license.customerEmail;
      if (customer) {
        // The e-mail is still free.
        slots[`customer:${email}`] = [tx.customerEmail.create({ tenantId: item.tenantId, email, customerId: customer.customerId }).commit(), tx.customer.create(customer).commit()];
      } else if (!checked.has(email) && run.customers.has(email)) {
        // The e-mail still names the customer read.
        slots[`customer:${email}`] = tx.customerEmail
          .check({ tenantId: item.tenantId, email })
          .where(({ customerId }, { eq }) => eq(customerId, item.customerId!))
          .commit();
      }
      checked.add(email);
    });
    return slots;
  };
  return { slots, counts, created };
}

/** A customer made for an imported license: its e-mail, name and, from our export, its details. */
function newCustomer(tenantId: string, license: ImportLicense, now: string): CustomerItem {
  const [firstName, ...rest] = (license.customerName ?? '').split(/\s+/).filter(Boolean);
  const details = license.customer ?? {};
  const first = details.firstName ?? firstName;
  const last = details.lastName ?? (rest.length ? rest.join(' ') : undefined);
  return {
    ...details,
    customerId: newId('cus'),
    tenantId,
    email: license.customerEmail,
    firstName: first,
    lastName: last,
    nameSearch: nameSearchOf(first, last),
    createdAt: license.createdAt ?? now,
    updatedAt: now,
  };
}

/** The import's end: `done`, and (unless a dry run) its one event, `import.completed`, with the final counts. */
async function finish(deps: ImportDeps, seen: ImportJobItem): Promise<void> {
  const job = await readImportJob(deps, seen.importId);
  if (!job || job.status !== 'running') return;
  const now = deps.clock.now();
  const done = { ...job, status: 'done' as const, finishedAt: now.toISOString(), updatedAt: now.toISOString() };
  const view = toImport(done, await importErrors(deps, job.importId));
  // What an import added is recorded in the tenant's audit log as the service's own doing (DECISIONS §17), with its end;
  // a dry run changed nothing.
  const audit = { tenantId: job.tenantId, actor: { type: 'system' as const, id: 'import' }, action: 'import.complete', now: () => now };
  const end = (run: () => Promise<unknown>) => (job.dryRun ? run() : withAudit({ ...audit, target: { type: 'importJob', idField: 'importId' } }, run));
  await end(() => transact(deps.data, (tx) => ({
    job: tx.importJob
      .patch({ importId: job.importId })
      .set({ status: 'done', finishedAt: done.finishedAt, updatedAt: done.updatedAt })
      .where(({ cursor, status }, { eq }) => `${eq(cursor, job.cursor)} AND ${eq(status, 'running')}`)
      .commit(),
    event: !job.dryRun && outboxEvent(tx, { tenantId: job.tenantId, type: 'import.completed', data: view, now }),
  })));
}
