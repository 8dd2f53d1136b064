import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import type { CfnElement } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, describe, expect, it, vi } from 'vitest';
import { cdkApp } from './support/app.js';
import { HANDLER_ENTRIES } from '../../infra/routes.js';
import { LicensingStack } from '../../infra/stack.js';
import { WORKER_ENTRIES } from '../../infra/worker-entries.js';
import { KEY_ACCESS, leadingKeyPatterns, type KeyAccessRole, type TableKeyAccess } from '../../shared/platform/data/key-access.js';

// Records the key access each handler module asks for when it loads (the role the local stack enforces).
const requestedKeyAccess = vi.hoisted(() => [] as unknown[]);
vi.mock('../../shared/platform/runtime.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/platform/runtime.js')>();
  return {
    ...actual,
    createDeps: (...args: Parameters<typeof actual.createDeps>) => {
      requestedKeyAccess.push(args[1]);
      return actual.createDeps(...args);
    },
    createLoadedDeps: (...args: Parameters<typeof actual.createLoadedDeps>) => {
      requestedKeyAccess.push(args[1]);
      return actual.createLoadedDeps(...args);
    },
  };
});

const outdir = mkdtempSync(join(tmpdir(), 'table-grants-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));
// Files after this one in the worker get the real createDeps, their own environment, and handlers loaded afresh.
afterAll(() => {
  vi.unstubAllEnvs();
  vi.doUnmock('../../shared/platform/runtime.js');
  vi.resetModules();
});

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const tableArn = { 'Fn::GetAtt': [logicalId(stack.table), 'Arn'] };
const indexArn = { 'Fn::Join': ['', [tableArn, '/index/*']] };

/** Every function of the stack with the table (all but the reference docs): its entry file and the key access it must have. */
/** CDK's one function behind the stack's `AwsCustomResource`s (infra/constructs/table-deletion-protection.ts). */
const CUSTOM_RESOURCE_FUNCTION = 'AWS679f53fac002430cb0da5b7982bd2287';

const FUNCTIONS: [name: string, fn: LambdaFunction, entry: string, keys: TableKeyAccess][] = [
  ['management', stack.functions.management, HANDLER_ENTRIES.management, 'all'],
  ['edge', stack.functions.edge, HANDLER_ENTRIES.edge, 'edge'],
  ['public', stack.functions.public, HANDLER_ENTRIES.public, 'public'],
  ['portal', stack.functions.portal, HANDLER_ENTRIES.portal, 'portal'],
  ['stripe webhook', stack.functions.stripeWebhook, HANDLER_ENTRIES.stripeWebhook, 'stripeWebhook'],
  ['outbox fan-out', stack.webhookDelivery.fanOut, WORKER_ENTRIES.outboxFanOut, 'webhookWorker'],
  ['outbox sweep', stack.webhookDelivery.sweep.function, WORKER_ENTRIES.outboxSweep, 'outboxSweep'],
  ['webhook dispatcher', stack.webhookDelivery.dispatcher, WORKER_ENTRIES.webhookDispatcher, 'webhookWorker'],
  ['mail sender', stack.mailDelivery.sender, WORKER_ENTRIES.mailSender, 'mailSender'],
  ['usage event writer', stack.usageEvents.writer, WORKER_ENTRIES.usageEventWriter, 'usageWriter'],
  ['expiry sweep', stack.expirySweep.function, WORKER_ENTRIES.expirySweep, 'expirySweep'],
  ['lease expiry', stack.leaseExpiry.function, WORKER_ENTRIES.leaseExpiry, 'leaseExpiry'],
  ['export worker', stack.accountExports.worker, WORKER_ENTRIES.exportWorker, 'exportWorker'],
  ['import worker', stack.accountImports.worker, WORKER_ENTRIES.importWorker, 'importWorker'],
];

const ITEM_ACTIONS = {
  read: ['dynamodb:BatchGetItem', 'dynamodb:ConditionCheckItem', 'dynamodb:GetItem', 'dynamodb:Query'],
  write: ['dynamodb:BatchWriteItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
};

type Resource = { Properties: Record<string, any> };
type Statement = { Action: string | string[]; Resource: unknown; Condition?: unknown };
const actionsOf = (statement: Statement) => [statement.Action].flat();

function statementsOf(fn: LambdaFunction): Statement[] {
  const roleId = logicalId(fn.role!);
  const policies = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } })) as {
    Properties: { PolicyDocument: { Statement: Statement[] } };
  }[];
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
}

/** Statements that allow anything on table items: item actions, Scan, PartiQL or a wildcard. */
function itemStatementsOf(fn: LambdaFunction): Statement[] {
  const touchesItems = (action: string) => /^dynamodb:(\*|.*Item$|Query|Scan|PartiQL)/.test(action);
  return statementsOf(fn).filter((statement) => actionsOf(statement).some(touchesItems));
}

/** The partition-key patterns under which a function may take `action` (CDK merges statements of equal conditions). */
function keysFor(fn: LambdaFunction, action: string): string[] {
  return itemStatementsOf(fn)
    .filter((statement) => actionsOf(statement).includes(action))
    .flatMap((statement) => (statement.Condition as { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': string[] } })['ForAllValues:StringLike']['dynamodb:LeadingKeys']);
}

/** The role whose read and write patterns a function's grants name; 'all' when they have no condition. */
function roleOf(fn: LambdaFunction): TableKeyAccess | undefined {
  if (itemStatementsOf(fn).every((statement) => statement.Condition === undefined)) return 'all';
  const same = (a: string[], b: string[]) => JSON.stringify(a) === JSON.stringify(b);
  const roles = Object.keys(KEY_ACCESS) as KeyAccessRole[];
  return roles.find(
    (role) => same(keysFor(fn, 'dynamodb:GetItem'), leadingKeyPatterns(role, 'read')) && same(keysFor(fn, 'dynamodb:PutItem'), leadingKeyPatterns(role, 'write')),
  );
}

describe('table grants', () => {
  it('cover every function of the stack', () => {
    // The docs function and the health check have no table; the dashboard's deployment machinery (CDK's copy function, the asset retirement)
    // neither; CDK's custom resource function turns the table's deletion protection on and nothing else (below).
    const retirement = stack.getLogicalId(stack.frontDoor!.dashboard.retirement.function.node.defaultChild as CfnElement);
    const machinery = (id: string) => id.startsWith('CustomCDKBucketDeployment') || id.startsWith(CUSTOM_RESOURCE_FUNCTION) || id === retirement;
    const ours = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => !machinery(id));
    expect(ours).toHaveLength(FUNCTIONS.length + 2);
  });

  it('let the table’s deletion protection change that setting of the table, and nothing else', () => {
    const role = Object.keys(template.findResources('AWS::IAM::Role')).find((id) => id.startsWith(`${CUSTOM_RESOURCE_FUNCTION}ServiceRole`));
    const policies = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: role }] } })) as Resource[];
    const statements = policies.flatMap((policy) => policy.Properties.PolicyDocument.Statement as Statement[]);
    expect(statements).toEqual([{ Action: 'dynamodb:UpdateTable', Effect: 'Allow', Resource: tableArn }]);
  });

  it('give the reference docs nothing of the table: its handler creates no deps', async () => {
    expect(itemStatementsOf(stack.functions.docs)).toEqual([]);
    requestedKeyAccess.length = 0;
    await import(pathToFileURL(join(process.cwd(), HANDLER_ENTRIES.docs)).href);
    expect(requestedKeyAccess).toEqual([]);
  });

  it.each(FUNCTIONS.filter(([, , , keys]) => keys !== 'all'))(
    '%s: reads on the partition keys it may read, changes on those it may write, on the table and its indexes; no Scan',
    (_name, fn, _entry, keys) => {
      const statements = itemStatementsOf(fn);
      const role = keys as KeyAccessRole;
      for (const action of ITEM_ACTIONS.read) expect([action, keysFor(fn, action)]).toEqual([action, leadingKeyPatterns(role, 'read')]);
      for (const action of ITEM_ACTIONS.write) expect([action, keysFor(fn, action)]).toEqual([action, leadingKeyPatterns(role, 'write')]);
      expect(statements.flatMap(actionsOf).sort()).toEqual([...ITEM_ACTIONS.read, ...ITEM_ACTIONS.write].sort());
      for (const statement of statements) expect(statement.Resource).toEqual([tableArn, indexArn]);
    },
  );

  it('let the edge and public functions write idempotency records (activate, deactivate), and no other restricted function', () => {
    const writable = (fn: LambdaFunction) => keysFor(fn, 'dynamodb:PutItem');
    for (const [name, fn, , keys] of FUNCTIONS.filter(([, , , keys]) => keys !== 'all')) {
      expect([name, writable(fn).includes('$licensing#idempotencyKeyHash_*')]).toEqual([name, keys === 'edge' || keys === 'public']);
    }
  });

  it('let neither the edge nor the public function change a payment provider, a seen Stripe event or a product', () => {
    const writable = (fn: LambdaFunction) => keysFor(fn, 'dynamodb:UpdateItem');
    // Written as ElectroDB keys them: the provider by the tenant alone, a seen event by tenant and event, a product by its id.
    const items = { paymentProvider: '$licensing#tenantId_usr_a', stripeEvent: '$licensing#tenantId_usr_a#stripeEventId_evt_1', product: '$licensing#productId_prd_a' };
    const matches = (patterns: string[], key: string) => patterns.some((pattern) => new RegExp(`^${pattern.replace(/[$]/g, '\\$').replace(/\*/g, '.*')}$`).test(key));
    for (const fn of [stack.functions.edge, stack.functions.public]) {
      expect(matches(writable(fn), items.paymentProvider)).toBe(false);
      expect(matches(writable(fn), items.stripeEvent)).toBe(false);
      expect(matches(writable(fn), items.product)).toBe(false);
      // Their counters, in the same tenant's partitions, they do change.
      expect(matches(writable(fn), '$licensing#tenantId_usr_a#shard_3')).toBe(true);
    }
    // The public function's feedback and its counts are in the product's records partition, apart from the product.
    expect(matches(writable(stack.functions.public), '$licensing#productRecords_prd_a')).toBe(true);
  });

  it('management: the whole table, unconditioned', () => {
    const statements = itemStatementsOf(stack.functions.management);
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Condition).toBeUndefined();
    expect(actionsOf(statements[0]!)).toEqual(expect.arrayContaining([...ITEM_ACTIONS.read, ...ITEM_ACTIONS.write]));
  });

  it("match the role each function's handler passes to createDeps, which the local stack enforces", async () => {
    // As in AWS: the workers inherit the environment of the tests' local stack (started before they fork).
    vi.stubEnv('RUNTIME', 'aws');
    vi.stubEnv('TABLE_NAME', 'licensing');
    vi.stubEnv('PASSWORD_HASH_COST', undefined);
    // Another file of this worker may have loaded the handlers already (the unit project shares modules between files).
    vi.resetModules();
    for (const [name, fn, entry, keys] of FUNCTIONS) {
      requestedKeyAccess.length = 0;
      const module = pathToFileURL(join(process.cwd(), entry)).href;
      await import(module);
      expect([name, requestedKeyAccess]).toEqual([name, [keys]]);
      expect([name, roleOf(fn)]).toEqual([name, keys]);
    }
  }, 30_000);
});
