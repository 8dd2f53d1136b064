import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { CfnElement, Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import type { Function as LambdaFunction } from 'aws-cdk-lib/aws-lambda';
import { afterAll, describe, expect, it } from 'vitest';
import { LicensingStack } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

/**
 * Which kinds of sealed values each function may open (shared/platform/secrets/secret-access.ts): KMS Decrypt conditioned on
 * the encryption context's `kind`, plus the legacy form of those kinds (sealed before contexts named one).
 */
const outRoot = mkdtempSync(join(tmpdir(), 'licensing-secret-grants-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));
const stack = new LicensingStack(cdkApp(mkdtempSync(join(outRoot, 'app-'))), 'LicensingService', { bundle: false });
const template = Template.fromStack(stack);

type Statement = { Action: string | string[]; Resource: unknown; Condition?: Record<string, Record<string, unknown>> };
const logicalId = (s: Stack, construct: { node: { defaultChild?: unknown } }) => s.getLogicalId(construct.node.defaultChild as CfnElement);

/** The KMS statements of a function's role. */
function kmsStatements(fn: LambdaFunction): Statement[] {
  const roleId = logicalId(stack, fn.role!);
  return Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } }))
    .flatMap((policy) => (policy as { Properties: { PolicyDocument: { Statement: Statement[] } } }).Properties.PolicyDocument.Statement)
    .filter((statement) => [statement.Action].flat().some((action) => action.startsWith('kms:')));
}

const kind = (kinds: string | string[]) => ({ Action: 'kms:Decrypt', Condition: { StringEquals: { 'kms:EncryptionContext:kind': kinds } } });
const legacySigningKey = { Action: 'kms:Decrypt', Condition: { Null: { 'kms:EncryptionContext:kind': 'true', 'kms:EncryptionContext:signingKey': 'false' } } };
const legacyStripeSecret = { Action: 'kms:Decrypt', Condition: { Null: { 'kms:EncryptionContext:kind': 'true', 'kms:EncryptionContext:signingKey': 'true' } } };

describe('sealed secrets: KMS grants by kind', () => {
  const keyArn = { 'Fn::GetAtt': [logicalId(stack, stack.providerSecretsKey.key), 'Arn'] };
  const functions = { ...stack.functions, webhookDispatcher: stack.webhookDelivery.dispatcher };

  it.each([
    ['edge', [kind('signing-key'), legacySigningKey]],
    ['public', [kind(['signing-key', 'stripe-secret']), legacySigningKey, legacyStripeSecret]],
    ['portal', [kind('stripe-secret'), legacyStripeSecret]],
    ['stripeWebhook', [kind('stripe-secret'), legacyStripeSecret]],
    ['webhookDispatcher', [kind('webhook-secret')]],
  ] as const)('%s may open only its kinds', (name, expected) => {
    const statements = kmsStatements(functions[name]);
    expect(statements.map(({ Action, Condition }) => ({ Action, Condition }))).toEqual(expected);
    for (const statement of statements) expect(statement.Resource).toEqual(keyArn);
  });

  it('management seals and opens every kind, unconditioned; the fan-out and the other workers get nothing', () => {
    expect(kmsStatements(stack.functions.management).map(({ Action, Condition }) => ({ Action: [Action].flat().sort(), Condition }))).toEqual([
      { Action: ['kms:Decrypt', 'kms:GenerateDataKey'], Condition: undefined },
    ]);
    expect(kmsStatements(stack.webhookDelivery.fanOut)).toEqual([]);
    expect(kmsStatements(stack.functions.docs)).toEqual([]);
  });

  it('gives the dispatcher the key in PROVIDER_KEY_ID', () => {
    const variables = (template.toJSON().Resources[logicalId(stack, stack.webhookDelivery.dispatcher)] as { Properties: { Environment: { Variables: Record<string, unknown> } } })
      .Properties.Environment.Variables;
    expect(variables.PROVIDER_KEY_ID).toEqual(keyArn);
  });
});
