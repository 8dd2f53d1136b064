import { withAudit } from '../../identity/index.js';
import { counterNames, counterUpdates, type PreparedTransaction, prepareTransaction, readAll, type Slot, transact, type TransactionEntities } from '../../platform/data/index.js';
import { type CustomerItem, nameSearchOf } from '../../customers/index.js';
import { outboxEvent } from '../../messaging/index.js';
import { type Deps, newId } from '../../platform/index.js';
import { type Environment, expiryItemChanges, type LicenseItem, machineHoldKey, stagingRules } from '../../licensing/index.js';
import { grantedFeatures } from '../../catalog/index.js';
import type { StorageDeps } from '../../platform/storage/index.js';
import { failImport, hasStalled, slotRelease, stallFailure } from './import-ends.js';
import { readable } from './readable.js';
import { importNotes, LISTED_ERRORS, readImportJob, toImport, type ImportJobItem } from './import-jobs.js';
import type { ImportQueue } from './import-queue.js';
import { prepareImport, preparedRows, PreparedRowsGone, type PreparedRow } from './prepare-import.js';
import { checkedLicense, type ImportLicense } from './row-checks.js';
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
/** E-mails remembered with the customer they name, so that rows further on need not read them again (the oldest go first). */
const KNOWN_CUSTOMERS = 5000;

/** A license row, with what the read ahead of the batches found in the table for it. */
type LicenseStep = {
  kind: 'license';
  license: ImportLicense;
  /** The row's warnings, as one message. */
  warning?: string;
  read: boolean;
  /** Its key exists already. */
  taken: boolean;
  /** The customer its e-mail names; null: none. */
  owner?: string | null;
};

/** One row's part of a batch, decided from the row and what the table holds. */
type Step = { kind: 'skip'; row: number; warning?: string } | { kind: 'error'; row: number; message: string } | LicenseStep;

/**
 * What the worker holds of an import while it runs: the job as it last wrote it, its target, and a window of steps
 * from its cursor on (filled from the prepared rows as the batches need them, read against the table ahead of them),
 * so that memory holds a few hundred rows whatever the file's size. Positions are rows of the prepared file.
 */
type Run = {
  job: ImportJobItem;
  target: ImportTarget;
  rows: AsyncGenerator<PreparedRow>;
  window: Step[];
  /** The position of `window[0]` (the job's cursor, once the window has caught up with it). */
  base: number;
  exhausted: boolean;
  filling: Promise<void>;
  /** Steps before this position have been read against the table; `reading`: the read in flight, if any. */
  readUpTo: number;
  reading?: Promise<void>;
  /** E-mails known to name a customer, with its id. */
  known: Map<string, string>;
  /** Sites of the license being written in parts that turned out active already (activated while it was written). */
  held: Set<string>;
};

async function loadTarget(deps: ImportDeps, job: ImportJobItem): Promise<ImportTarget | undefined> {
  const { data: product } = await deps.data.entities.product.get({ productId: job.productId }).go({ consistent: true });
  if (!product || product.tenantId !== job.tenantId || product.deletedAt) return undefined;
  const { data: plans } = await deps.data.entities.plan.query.byProduct({ productId: product.productId }).go({ pages: 'all' });
  return {
    tenantId: job.tenantId,
    productId: product.productId,
    features: new Set((product.features ?? []).map((feature) => feature.key)),
    plansBySlug: new Map(plans.map((plan) => [plan.slug, { planId: plan.planId, siteLimit: plan.siteLimit, channel: plan.channel, features: grantedFeatures(product, plan.features) }])),
    staging: stagingRules(product.stagingPatterns, product.stagingActivationLimit),
  };
}

/**
 * Reads the import's file into its prepared rows (once: the import is `queued` until then) and marks it `running`;
 * answers the job as it then stands, or undefined when it ended (the file could not be read) or another worker moved it.
 */
async function prepared(deps: ImportDeps, job: ImportJobItem): Promise<ImportJobItem | undefined> {
  if (job.rows !== undefined) return job;
  const rows = await prepareImport(deps, job);
  if (typeof rows === 'string') {
    await failImport(deps, job, rows);
    return undefined;
  }
  await deps.data.entities.importJob
    .patch({ importId: job.importId })
    .set({ status: 'running', rows, updatedAt: deps.clock.now().toISOString() })
    .where(({ status }, { eq }) => eq(status, 'queued'))
    .go()
    .catch(() => undefined); // another worker prepared it first
  const now = await readImportJob(deps, job.importId);
  return now?.status === 'running' ? now : undefined;
}

/**
 * Runs an import from its cursor to the end of its file, or until `timeLeftMs()` says the invocation is about to end
 * (then it queues the import again). The file is read once, into prepared rows; each batch of rows is then one
 * transaction with the job's cursor and counts, so the import can stop anywhere (a crash, a timeout) and go on where
 * it stopped, and a second worker given the same import is refused instead of writing rows twice. A license with more
 * activations than one transaction holds is written in parts, each moving the job's `part` (DECISIONS §20: up to
 * 1,000 activations). A dry run takes the same steps and writes only its own progress. An import that has stalled
 * (no progress for 15 minutes) ends here `failed`.
 */
export async function runImport(deps: ImportDeps, importId: string, timeLeftMs: () => number, handOverMs: number): Promise<void> {
  const read = await readImportJob(deps, importId);
  if (!read || read.status === 'done' || read.status === 'failed') return;
  if (hasStalled(read, deps.clock.now())) {
    await failImport(deps, read, stallFailure(read), read.updatedAt);
    return;
  }
  const target = await loadTarget(deps, read);
  if (!target) {
    await failImport(deps, read, 'The product was deleted');
    return;
  }
  const job = await prepared(deps, read);
  if (!job) return;
  const run: Run = {
    job,
    target,
    rows: preparedRows(deps, job.fileKey, job.cursor, job.rows!),
    window: [],
    base: job.cursor,
    exhausted: false,
    filling: Promise.resolve(),
    readUpTo: job.cursor,
    known: new Map(),
    held: new Set(),
  };
  try {
    let ahead: Batch | undefined;
    while (run.job.cursor < run.job.rows!) {
      if (timeLeftMs() < handOverMs) return await deps.queue.send(importId);
      const next = await runBatch(deps, run, ahead);
      if (!next) return;
      moveOn(run, next.job);
      ahead = next.ahead;
    }
  } catch (error) {
    if (!(error instanceof PreparedRowsGone)) throw error;
    await failImport(deps, run.job, `${error.message}: start the import again`);
    return;
  } finally {
    await run.reading?.catch(() => undefined);
    await run.rows.return(undefined);
  }
  await finish(deps, run.job);
}

/** A prepared row as the batches take it: a bad row, a row left out, or a checked license. */
function stepOf(row: PreparedRow, target: ImportTarget, now: Date): Step {
  if ('error' in row) return { kind: 'error', row: row.row, message: row.error };
  if ('skipped' in row) return { kind: 'skip', row: row.row, warning: row.skipped ?? undefined };
  const checked = checkedLicense(row.row, row.license, target, now);
  if (typeof checked === 'string') return { kind: 'error', row: row.row, message: checked };
  return { kind: 'license', license: checked.license, warning: checked.warnings.join('; ') || undefined, read: false, taken: false };
}

/** Fills the window up to position `to` (or the end of the rows); one fill at a time, so rows keep their order. */
function fill(run: Run, to: number): Promise<void> {
  run.filling = run.filling.then(async () => {
    while (!run.exhausted && run.base + run.window.length < to) {
      const next = await run.rows.next();
      if (next.done) run.exhausted = true;
      else run.window.push(stepOf(next.value, run.target, new Date()));
    }
  });
  return run.filling;
}

/** The window's step at position `at`. */
const stepAt = (run: Run, at: number) => run.window[at - run.base];

/** The job as a batch left it: the window moves to its cursor, and the rows behind it are let go. */
function moveOn(run: Run, job: ImportJobItem): void {
  const passed = job.cursor - run.base;
  if (passed > 0) {
    run.window.splice(0, passed);
    run.base = job.cursor;
    run.held.clear();
  }
  if (run.readUpTo < run.base) run.readUpTo = run.base;
  run.job = job;
}

function remember(run: Run, email: string, customerId: string): void {
  run.known.delete(email);
  run.known.set(email, customerId);
  if (run.known.size > KNOWN_CUSTOMERS) run.known.delete(run.known.keys().next().value!);
}

/** Reads, in one batch read each, the keys and the not yet known e-mails of the rows from `run.readUpTo` on. */
async function readAhead(deps: ImportDeps, run: Run): Promise<void> {
  const from = run.readUpTo;
  await fill(run, from + READ_ROWS);
  const steps = run.window.slice(from - run.base, from - run.base + READ_ROWS).filter((step): step is LicenseStep => step.kind === 'license');
  run.readUpTo = Math.min(from + READ_ROWS, run.base + run.window.length);
  const emails = [...new Set(steps.map(({ license }) => license.customerEmail))].filter((email) => !run.known.has(email));
  const [existing, holders] = await Promise.all([
    readAll(steps.map(({ license }) => ({ licenseKey: license.licenseKey })), (keys) => deps.data.entities.license.get(keys).go({ consistent: true })),
    readAll(emails.map((email) => ({ tenantId: run.target.tenantId, email })), (keys) => deps.data.entities.customerEmail.get(keys).go({ consistent: true })),
  ]);
  const taken = new Set(existing.map((item) => item.licenseKey));
  for (const holder of holders) remember(run, holder.email, holder.customerId);
  for (const step of steps) {
    step.read = true;
    step.taken = taken.has(step.license.licenseKey);
    step.owner = run.known.get(step.license.customerEmail) ?? null;
  }
}

/** Waits for the read in flight, then reads on until the rows before position `to` are read. */
async function readTable(deps: ImportDeps, run: Run, to: number): Promise<void> {
  await run.reading;
  run.reading = undefined;
  await fill(run, to);
  while (run.readUpTo < Math.min(to, run.base + run.window.length)) await readAhead(deps, run);
}

/** Starts reading the next rows while a batch is written, once fewer than a batch's rows are left read. */
function readSoon(deps: ImportDeps, run: Run, end: number): void {
  if (run.reading || (run.exhausted && run.readUpTo >= run.base + run.window.length) || run.readUpTo - end >= WINDOW_ROWS) return;
  const reading = readAhead(deps, run);
  // Its failure reaches the next batch, which awaits it; none may come if the write fails first.
  reading.catch(() => undefined);
  run.reading = reading;
}

/** The window emptied and the prepared rows read again from `job`'s cursor: another worker moved the import there. */
async function restartAt(deps: ImportDeps, run: Run, job: ImportJobItem): Promise<void> {
  await run.rows.return(undefined);
  run.rows = preparedRows(deps, job.fileKey, job.cursor, job.rows!);
  run.window = [];
  run.base = job.cursor;
  run.readUpTo = job.cursor;
  run.exhausted = false;
  run.held.clear();
}

/** What has to be read again after a refused transaction: the table may have changed from the batch on. */
async function forget(run: Run): Promise<void> {
  await run.reading?.catch(() => undefined);
  run.reading = undefined;
  run.readUpTo = run.base;
  for (const step of run.window) if (step.kind === 'license') step.read = false;
}

/**
 * What an imported license's activations hold, each keyed as the API keys it: its sites by domain, then its devices
 * by `machine:<fingerprint>` (production: a seat each).
 */
type Holder = { domain: string; environment: Environment; machine?: string; name?: string; platform?: string };
function holdersOf(license: ImportLicense): Holder[] {
  return [
    ...license.sites,
    ...license.machines.map(({ machine, name, platform }) => ({ domain: machineHoldKey(machine), environment: 'production' as const, machine, name, platform })),
  ];
}

/** Items a license takes besides its activations: itself and its ref, and the expiry and reminder items of an active one with an expiry. */
const licenseItems = (license: ImportLicense) => 2 + (license.status === 'active' && license.expiresAt ? 2 : 0);

/** Counts a batch adds to the job. */
type Counts = { licenses: number; customers: number; activations: number; skipped: number; errorCount: number; warningCount: number };
const noCounts = (): Counts => ({ licenses: 0, customers: 0, activations: 0, skipped: 0, errorCount: 0, warningCount: 0 });

/** A row's note, as it is listed (the first 100 of each kind) and counted. */
type Note = { row: number; message: string };

/**
 * The next transaction's rows from the cursor: as many whole rows as fit in one transaction (`rows`), or one part of a
 * license too large for one (`part`: the first, which writes the license, or one that adds activations to it).
 */
type Plan =
  | { kind: 'rows'; steps: Step[]; end: number; newCustomers: Set<string> }
  | { kind: 'part'; step: LicenseStep; holders: Holder[]; from: number; to: number; newCustomer: boolean };

async function plan(deps: ImportDeps, run: Run): Promise<Plan> {
  const start = run.job.cursor;
  await readTable(deps, run, start + WINDOW_ROWS);
  // A license written in parts goes on where its last part ended (its key exists: the first part wrote it).
  const resumed = stepAt(run, start);
  if (run.job.part && resumed?.kind === 'license') return partPlan(run, resumed, ITEM_BUDGET - 1, false);
  const dryRun = run.job.dryRun;
  const steps: Step[] = [];
  const newCustomers = new Set<string>();
  const batchEmails = new Set<string>();
  const batchKeys = new Set<string>();
  let items = 0;
  let errors = run.job.errorCount;
  let warnings = run.job.warningCount ?? 0;
  for (let at = start; at < Math.min(start + WINDOW_ROWS, run.base + run.window.length); at++) {
    const step = stepAt(run, at)!;
    let cost = 0;
    if (step.kind === 'error') cost = errors < LISTED_ERRORS ? 1 : 0;
    if (step.kind === 'skip' && step.warning) cost = warnings < LISTED_ERRORS ? 1 : 0;
    const taken = step.kind === 'license' && (step.taken || batchKeys.has(step.license.licenseKey));
    const writes = step.kind === 'license' && !taken && !dryRun;
    let customerCost = 0;
    if (writes) {
      const { license } = step;
      customerCost = batchEmails.has(license.customerEmail) ? 0 : step.owner ? 1 : 2;
      const licenseCost = licenseItems(license) + customerCost + (step.warning && warnings < LISTED_ERRORS ? 1 : 0);
      cost = licenseCost + 2 * holdersOf(license).length;
      if (at === start && cost > ITEM_BUDGET) return partPlan(run, step, ITEM_BUDGET - licenseCost, customerCost === 2);
    } else if (step.kind === 'license' && !taken && step.warning) {
      cost = warnings < LISTED_ERRORS ? 1 : 0;
    }
    if (steps.length > 0 && items + cost > ITEM_BUDGET) break;
    items += cost;
    if (step.kind === 'error') errors++;
    if (step.kind === 'skip' && step.warning) warnings++;
    if (step.kind === 'license') {
      if (taken) {
        steps.push({ kind: 'skip', row: step.license.row });
        continue;
      }
      if (step.warning) warnings++;
      batchKeys.add(step.license.licenseKey);
      if (!step.owner && !batchEmails.has(step.license.customerEmail)) newCustomers.add(step.license.customerEmail);
      batchEmails.add(step.license.customerEmail);
    }
    steps.push(step);
  }
  return { kind: 'rows', steps, end: start + steps.length, newCustomers };
}

/** The next part of a license written in parts: its activations from the job's `part` on, as many as `budget` items hold. */
function partPlan(run: Run, step: LicenseStep, budget: number, newCustomer: boolean): Plan {
  const all = holdersOf(step.license);
  const from = run.job.part ?? 0;
  const holders: Holder[] = [];
  let to = from;
  while (to < all.length && (holders.length + 1) * 2 <= budget) {
    const holder = all[to++]!;
    if (!run.held.has(holder.domain)) holders.push(holder);
  }
  return { kind: 'part', step, holders, from, to, newCustomer };
}

/** A batch ready to send: its plan, its writes, and their transaction built. */
type Batch = { next: Plan; write: BatchWrite; transaction: PreparedTransaction<string> };
type BatchWrite = ReturnType<typeof batchWrites>;

/** The next batch from the cursor: planned (its rows read against the table), and its transaction built. */
async function prepareBatch(deps: ImportDeps, run: Run): Promise<Batch> {
  const next = await plan(deps, run);
  const now = deps.clock.now();
  const write = next.kind === 'rows' ? batchWrites(run, next.steps, next.newCustomers, now) : partWrites(run, next, now);
  return { next, write, transaction: prepareTransaction(deps.data, (tx) => write.slots(tx)) };
}

/** What a committed batch leaves: the customers it made are known, with the rows that name them. */
function settle(run: Run, write: BatchWrite): ImportJobItem {
  for (const [email, customerId] of write.created) {
    remember(run, email, customerId);
    for (const step of run.window) if (step.kind === 'license' && step.license.customerEmail === email) step.owner = customerId;
  }
  return write.after();
}

/**
 * One batch written in one transaction, while the next rows are read and, for a batch of whole rows, the next batch is
 * built as if this one commits (the worker's part of a transaction's time, overlapped with the table's). Refused, that
 * guess is let go: the window is read again from the cursor. Answers the job as it now stands and the next batch, if
 * built, or undefined to stop.
 */
async function runBatch(deps: ImportDeps, run: Run, ahead?: Batch): Promise<{ job: ImportJobItem; ahead?: Batch } | undefined> {
  for (let round = 0; round < MAX_BATCH_ROUNDS; round++) {
    const batch = (round === 0 && ahead) || (await prepareBatch(deps, run));
    const { next, write } = batch;
    readSoon(deps, run, next.kind === 'rows' ? next.end : run.job.cursor + 1);
    const sent = batch.transaction.send();
    const before = run.job;
    const guessed = next.kind === 'rows';
    const guess = guessed ? guessNext(deps, run, write) : undefined;
    const outcome = await sent;
    if (outcome.committed) return { job: settle(run, write), ahead: await guess };
    await guess?.catch(() => undefined);
    await forget(run);
    if (guessed) {
      // The guess moved the window on and took this batch's customers as made: back to the cursor, read again.
      for (const email of write.created.keys()) run.known.delete(email);
      run.job = before;
      await restartAt(deps, run, before);
    }
    if (outcome.refused('job')) {
      // Another worker moved the import on, or it ended: go on from what the table says.
      const job = await readImportJob(deps, run.job.importId);
      if (job?.status !== 'running') return undefined;
      await restartAt(deps, run, job);
      return { job };
    }
    if (outcome.refused('product')) {
      await failImport(deps, run.job, 'The product was deleted');
      return undefined;
    }
    // A site of a license written in parts activated meanwhile: it holds its seat already.
    if (next.kind === 'part') for (const holder of next.holders) if (outcome.refused(`holder:${holder.domain}`)) run.held.add(holder.domain);
    // A key or an e-mail was taken since the batch read them: read again and decide again.
    for (const email of [...run.known.keys()]) if (outcome.refused(`customer:${email}`)) run.known.delete(email);
  }
  throw new Error(`import ${run.job.importId}: rows from ${run.job.cursor} kept conflicting with concurrent writes`);
}

/** The batch after `write`'s, built as if that one committed (the window moved on); none past the end of the rows. */
function guessNext(deps: ImportDeps, run: Run, write: BatchWrite): Promise<Batch> | undefined {
  const job = settle(run, write);
  moveOn(run, job);
  if (job.cursor >= job.rows!) return undefined;
  const guess = prepareBatch(deps, run);
  // Its failure reaches the next round, which awaits it; none may come if this batch is refused.
  guess.catch(() => undefined);
  return guess;
}

/** The job's move and counts of a transaction, on the condition that it is where the worker read it. */
function jobMove(tx: TransactionEntities, job: ImportJobItem, counts: Counts, moves: { cursor: number; part?: number; partLicenseId?: string }, now: string) {
  const done = moves.part === undefined;
  return tx.importJob
    .patch({ importId: job.importId })
    .set({ cursor: moves.cursor, updatedAt: now, ...(done ? {} : { part: moves.part, partLicenseId: moves.partLicenseId }) })
    .add(counts)
    .remove(done ? ['lastError', 'part', 'partLicenseId'] : ['lastError'])
    .where(({ cursor, status, part }, { eq, notExists }) => `${eq(cursor, job.cursor)} AND ${eq(status, 'running')} AND ${job.part ? eq(part, job.part) : notExists(part)}`)
    .commit();
}

/** The job as a committed transaction left it. */
function movedJob(job: ImportJobItem, counts: Counts, moves: { cursor: number; part?: number; partLicenseId?: string }, now: string): ImportJobItem {
  const { part: _part, partLicenseId: _id, lastError: _error, ...rest } = job;
  const moved: ImportJobItem = { ...rest, cursor: moves.cursor, updatedAt: now };
  for (const [name, value] of Object.entries(counts) as [keyof Counts, number][]) moved[name] = (job[name] ?? 0) + value;
  return moves.part === undefined ? moved : { ...moved, part: moves.part, partLicenseId: moves.partLicenseId };
}

/** The notes of a transaction: the bad rows and warnings it lists (while fewer than 100 of each are), as items. */
function noteItems(tx: TransactionEntities, job: ImportJobItem, errors: Note[], warnings: Note[]) {
  return [
    ...errors.map((error) => tx.importError.put({ importId: job.importId, ...error }).commit()),
    ...warnings.map((warning) => tx.importWarning.put({ importId: job.importId, ...warning }).commit()),
  ];
}

/** The license item of an imported license, with the activations it holds when written. */
function licenseItemOf(run: Run, license: ImportLicense, licenseId: string, customerId: string, holders: Holder[], now: string): LicenseItem {
  const staging = holders.filter((holder) => holder.environment === 'staging').length;
  return {
    licenseKey: license.licenseKey,
    licenseId,
    tenantId: run.target.tenantId,
    productId: run.target.productId,
    planId: license.planId,
    customerId,
    customerEmail: license.customerEmail,
    customerName: license.customerName,
    status: license.status,
    seats: license.seats,
    activatedCount: holders.length - staging,
    stagingCount: staging > 0 ? staging : undefined,
    expiresAt: license.expiresAt,
    channel: license.channel,
    ...(license.features.length > 0 && { features: license.features }),
    floating: license.floating,
    leaseSeconds: license.leaseSeconds,
    createdAt: license.createdAt ?? now,
    updatedAt: now,
  };
}

/** The items of a license's activations: each activation and its domain hold (which exists once per license and domain). */
function activationItems(tx: TransactionEntities, item: Pick<LicenseItem, 'licenseId' | 'tenantId' | 'productId'>, holders: Holder[], now: string) {
  return holders.map(({ domain, environment, ...machine }) => {
    const activationId = newId('act');
    return [
      tx.activation
        .create({ activationId, licenseId: item.licenseId, tenantId: item.tenantId, productId: item.productId, domain, ...machine, ipAddress: '', status: 'active', environment, activatedAt: now })
        .commit(),
      tx.activeDomain.create({ licenseId: item.licenseId, domain, activationId, activatedAt: now, environment }).commit(),
    ];
  });
}

/** The customer's slot of a license: a new customer with its e-mail's holder, or the check that the e-mail still names the one read. */
function customerSlot(tx: TransactionEntities, item: LicenseItem, customer: CustomerItem | undefined) {
  if (customer) {
    // The e-mail is still free.
    return [tx.customerEmail.create({ tenantId: item.tenantId, email: item.customerEmail, customerId: customer.customerId }).commit(), tx.customer.create(customer).commit()];
  }
  // The e-mail still names the customer read.
  return tx.customerEmail
    .check({ tenantId: item.tenantId, email: item.customerEmail })
    .where(({ customerId }, { eq }) => eq(customerId, item.customerId!))
    .commit();
}

/** The transaction of a batch of whole rows: their licenses with their customers and sites, the counters, the notes, the job's move. */
function batchWrites(run: Run, steps: Step[], newCustomers: Set<string>, now: Date) {
  const { target, job } = run;
  const nowIso = now.toISOString();
  const counts = noCounts();
  const licenseCounters = new Map<string, number>();
  const created = new Map<string, string>();
  const errors: Note[] = [];
  const warnings: Note[] = [];
  const note = (list: Note[], listed: number, row: number, message: string) => {
    if (listed < LISTED_ERRORS) list.push({ row, message: readable(message) });
  };
  const licenses: { item: LicenseItem; holders: Holder[]; customer?: CustomerItem; checkOwner: boolean }[] = [];
  for (const step of steps) {
    if (step.kind === 'skip') {
      counts.skipped++;
      if (step.warning) note(warnings, (job.warningCount ?? 0) + counts.warningCount++, step.row, step.warning);
      continue;
    }
    if (step.kind === 'error') {
      note(errors, job.errorCount + counts.errorCount++, step.row, step.message);
      continue;
    }
    const { license } = step;
    counts.licenses++;
    if (step.warning) note(warnings, (job.warningCount ?? 0) + counts.warningCount++, license.row, step.warning);
    const holders = holdersOf(license);
    counts.activations += holders.length;
    const existing = step.owner ?? created.get(license.customerEmail);
    let customer: CustomerItem | undefined;
    if (!existing && newCustomers.has(license.customerEmail)) {
      customer = newCustomer(target.tenantId, license, nowIso);
      created.set(license.customerEmail, customer.customerId);
      counts.customers++;
    }
    if (job.dryRun) continue;
    for (const name of counterNames.licenses(target.productId, license.status)) licenseCounters.set(name, (licenseCounters.get(name) ?? 0) + 1);
    const item = licenseItemOf(run, license, newId('lic'), existing ?? customer!.customerId, holders, nowIso);
    licenses.push({ item, holders, customer, checkOwner: !customer && !!step.owner });
  }
  const end = job.cursor + steps.length;

  const slots = (tx: TransactionEntities): Record<string, Slot> => {
    const slots: Record<string, Slot> = { job: jobMove(tx, job, counts, { cursor: end }, nowIso), notes: noteItems(tx, job, errors, warnings) };
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
    licenses.forEach(({ item, holders, customer, checkOwner }, index) => {
      slots[`license:${index}`] = [
        // Only if the key is still free.
        tx.license.create(item).commit(),
        tx.licenseRef.create({ licenseId: item.licenseId, licenseKey: item.licenseKey, tenantId: item.tenantId }).commit(),
        ...expiryItemChanges(tx, item, undefined, item),
        ...activationItems(tx, item, holders, nowIso).flat(),
      ];
      const email = item.customerEmail;
      if (customer || (checkOwner && !checked.has(email))) slots[`customer:${email}`] = customerSlot(tx, item, customer);
      checked.add(email);
    });
    return slots;
  };
  // A dry run's customers are remembered too (with ids nothing holds), so that later rows do not count them again.
  return { slots, created, after: () => movedJob(job, counts, { cursor: end }, nowIso) };
}

/**
 * The transaction of one part of a license written in parts. The first writes the license (with the activations of
 * this part), its customer, its counters and its warning; each later one adds its activations to it and to its
 * `activatedCount`; the last moves the cursor past the row. The license's counts always match the activations written.
 */
function partWrites(run: Run, next: Extract<Plan, { kind: 'part' }>, now: Date) {
  const { target, job } = run;
  const { license } = next.step;
  const nowIso = now.toISOString();
  const first = next.from === 0;
  const last = next.to >= holdersOf(license).length;
  const licenseId = first ? newId('lic') : job.partLicenseId!;
  const counts = { ...noCounts(), activations: next.holders.length };
  const created = new Map<string, string>();
  let customer: CustomerItem | undefined;
  const warnings: Note[] = [];
  if (first) {
    counts.licenses = 1;
    if (next.newCustomer) {
      customer = newCustomer(target.tenantId, license, nowIso);
      created.set(license.customerEmail, customer.customerId);
      counts.customers = 1;
    }
    if (next.step.warning) {
      if ((job.warningCount ?? 0) < LISTED_ERRORS) warnings.push({ row: license.row, message: next.step.warning });
      counts.warningCount = 1;
    }
  }
  const moves = last ? { cursor: job.cursor + 1 } : { cursor: job.cursor, part: next.to, partLicenseId: licenseId };
  const staging = next.holders.filter((holder) => holder.environment === 'staging').length;

  const slots = (tx: TransactionEntities): Record<string, Slot> => {
    const slots: Record<string, Slot> = {
      job: jobMove(tx, job, counts, moves, nowIso),
      notes: noteItems(tx, job, [], warnings),
      product: tx.product
        .check({ productId: target.productId })
        .where(({ deletedAt }, { notExists }) => notExists(deletedAt))
        .commit(),
      counters: [
        ...(first ? counterUpdates(tx.counter, target.tenantId, counterNames.licenses(target.productId, license.status), 1) : []),
        ...(counts.activations > 0 ? counterUpdates(tx.counter, target.tenantId, counterNames.activations('active'), counts.activations) : []),
        ...(customer ? counterUpdates(tx.counter, target.tenantId, counterNames.customers(), 1) : []),
      ],
    };
    const identity = { licenseId, tenantId: target.tenantId, productId: target.productId };
    if (first) {
      const item = licenseItemOf(run, license, licenseId, next.step.owner ?? customer!.customerId, next.holders, nowIso);
      slots.license = [
        tx.license.create(item).commit(),
        tx.licenseRef.create({ licenseId, licenseKey: item.licenseKey, tenantId: item.tenantId }).commit(),
        ...expiryItemChanges(tx, item, undefined, item),
      ];
      slots[`customer:${license.customerEmail}`] = customerSlot(tx, item, customer);
    } else if (next.holders.length > 0) {
      slots.license = tx.license
        .patch({ licenseKey: license.licenseKey })
        .add(staging > 0 ? { activatedCount: next.holders.length - staging, stagingCount: staging } : { activatedCount: next.holders.length })
        .set({ updatedAt: nowIso })
        .commit();
    }
    activationItems(tx, identity, next.holders, nowIso).forEach((items, index) => {
      slots[`holder:${next.holders[index]!.domain}`] = items;
    });
    return slots;
  };
  return { slots, created, after: () => movedJob(job, counts, moves, nowIso) };
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

/**
 * The import's end: `done`, its slot freed, and (unless a dry run) its one event, `import.completed`, with the final
 * counts.
 */
async function finish(deps: ImportDeps, seen: ImportJobItem): Promise<void> {
  const job = await readImportJob(deps, seen.importId);
  if (!job || job.status !== 'running') return;
  const now = deps.clock.now();
  const done = { ...job, status: 'done' as const, finishedAt: now.toISOString(), updatedAt: now.toISOString() };
  const notes = await importNotes(deps, job.importId);
  const view = toImport(done, notes.errors, notes.warnings);
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
    slot: slotRelease(tx, job),
    event: !job.dryRun && outboxEvent(tx, { tenantId: job.tenantId, type: 'import.completed', data: view, now }),
  })));
}
