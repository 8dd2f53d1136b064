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
import { KEY_ACCESS, leadingKeyPatterns, type KeyAccessRole, type TableKeyAccess } from '../../shared/data/key-access.js';

// Records the key access each handler module asks for when it loads (the role the local stack enforces).
const requestedKeyAccess = vi.hoisted(() => [] as unknown[]);
vi.mock('../../shared/runtime.js', async (importOriginal) => {
  const actual = await importOriginal<typeof import('../../shared/runtime.js')>();
  return {
    ...actual,
    createDeps: (...args: Parameters<typeof actual.createDeps>) => {
      requestedKeyAccess.push(args[1]);
      return actual.createDeps(...args);
    },
  };
});

const outdir = mkdtempSync(join(tmpdir(), 'table-grants-test-'));
afterAll(() => rmSync(outdir, { recursive: true, force: true }));

const stack = new LicensingStack(cdkApp(outdir), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);
const logicalId = (construct: { node: { defaultChild?: unknown } }) => stack.getLogicalId(construct.node.defaultChild as CfnElement);
const tableArn = { 'Fn::GetAtt': [logicalId(stack.table), 'Arn'] };
const indexArn = { 'Fn::Join': ['', [tableArn, '/index/*']] };

/** Every function of the stack with the table (all but the reference docs): its entry file and the key access it must have. */
const FUNCTIONS: [name: string, fn: LambdaFunction, entry: string, keys: TableKeyAccess][] = [
  ['management', stack.functions.management, HANDLER_ENTRIES.management, 'all'],
  ['edge', stack.functions.edge, HANDLER_ENTRIES.edge, 'licensing'],
  ['public', stack.functions.public, HANDLER_ENTRIES.public, 'licensing'],
  ['portal', stack.functions.portal, HANDLER_ENTRIES.portal, 'portal'],
  ['stripe webhook', stack.functions.stripeWebhook, HANDLER_ENTRIES.stripeWebhook, 'stripeWebhook'],
  ['outbox fan-out', stack.webhookDelivery.fanOut, WORKER_ENTRIES.outboxFanOut, 'webhookWorker'],
  ['webhook dispatcher', stack.webhookDelivery.dispatcher, WORKER_ENTRIES.webhookDispatcher, 'webhookWorker'],
  ['mail sender', stack.mailDelivery.sender, WORKER_ENTRIES.mailSender, 'mailSender'],
  ['usage event writer', stack.usageEvents.writer, WORKER_ENTRIES.usageEventWriter, 'usageWriter'],
  ['expiry sweep', stack.expirySweep.function, WORKER_ENTRIES.expirySweep, 'expirySweep'],
];

const ITEM_ACTIONS = {
  read: ['dynamodb:BatchGetItem', 'dynamodb:GetItem', 'dynamodb:Query'],
  write: ['dynamodb:BatchWriteItem', 'dynamodb:ConditionCheckItem', 'dynamodb:DeleteItem', 'dynamodb:PutItem', 'dynamodb:UpdateItem'],
};

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

/** The role whose patterns a statement's condition names; 'all' when it has none. */
function roleOf(statement: Statement): TableKeyAccess | undefined {
  if (statement.Condition === undefined) return 'all';
  const roles = Object.keys(KEY_ACCESS) as KeyAccessRole[];
  return roles.find((role) => JSON.stringify(statement.Condition) === JSON.stringify({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeyPatterns(role) } }));
}

describe('table grants', () => {
  it('cover every function of the stack', () => {
    // The docs function has no table; the dashboard's deployment machinery (CDK's copy function, the asset retirement) neither.
    const retirement = stack.getLogicalId(stack.frontDoor!.dashboard.retirement.function.node.defaultChild as CfnElement);
    const ours = Object.keys(template.findResources('AWS::Lambda::Function')).filter((id) => !id.startsWith('CustomCDKBucketDeployment') && id !== retirement);
    expect(ours).toHaveLength(FUNCTIONS.length + 1);
  });

  it('give the reference docs nothing of the table: its handler creates no deps', async () => {
    expect(itemStatementsOf(stack.functions.docs)).toEqual([]);
    requestedKeyAccess.length = 0;
    await import(pathToFileURL(join(process.cwd(), HANDLER_ENTRIES.docs)).href);
    expect(requestedKeyAccess).toEqual([]);
  });

  it.each(FUNCTIONS.filter(([, , , keys]) => keys !== 'all'))(
    '%s: one statement of item actions on the table and its indexes, only on the partition keys of its role, no Scan',
    (_name, fn, _entry, keys) => {
      const statements = itemStatementsOf(fn);
      expect(statements).toHaveLength(1);
      const [statement] = statements as [Statement];
      expect(statement.Condition).toEqual({ 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': leadingKeyPatterns(keys as KeyAccessRole) } });
      expect(actionsOf(statement).sort()).toEqual([...ITEM_ACTIONS.read, ...ITEM_ACTIONS.write].sort());
      expect(statement.Resource).toEqual([tableArn, indexArn]);
    },
  );

  it('let the edge and public functions write idempotency records (activate, deactivate), and no other restricted function', () => {
    const leadingKeys = (fn: LambdaFunction) =>
      (itemStatementsOf(fn)[0]!.Condition as { 'ForAllValues:StringLike': { 'dynamodb:LeadingKeys': string[] } })['ForAllValues:StringLike']['dynamodb:LeadingKeys'];
    for (const [name, fn, , keys] of FUNCTIONS.filter(([, , , keys]) => keys !== 'all')) {
      expect([name, leadingKeys(fn).includes('$licensing#idempotencyKeyHash_*')]).toEqual([name, keys === 'licensing']);
    }
  });

  it('management: the whole table, unconditioned', () => {
    const statements = itemStatementsOf(stack.functions.management);
    expect(statements).toHaveLength(1);
    expect(statements[0]!.Condition).toBeUndefined();
    expect(actionsOf(statements[0]!)).toEqual(expect.arrayContaining([...ITEM_ACTIONS.read, ...ITEM_ACTIONS.write]));
  });

  it("match the role each function's handler passes to createDeps, which the local stack enforces", async () => {
    vi.stubEnv('RUNTIME', 'aws');
    vi.stubEnv('TABLE_NAME', 'licensing');
    for (const [name, fn, entry, keys] of FUNCTIONS) {
      requestedKeyAccess.length = 0;
      const module = pathToFileURL(join(process.cwd(), entry)).href;
      await import(module);
      expect([name, requestedKeyAccess]).toEqual([name, [keys]]);
      expect([name, roleOf(itemStatementsOf(fn)[0]!)]).toEqual([name, keys]);
    }
    vi.unstubAllEnvs();
  }, 30_000);
});
