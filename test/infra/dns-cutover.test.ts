import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import type { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { afterAll, describe, expect, it } from 'vitest';
import { buildStacks } from '../../infra/app.js';
import { logicalIdOf } from '../../infra/names.js';
import { readDeploySettings } from '../../infra/settings.js';
import type { LicensingStack } from '../../infra/stack.js';
import { cdkApp } from './support/app.js';

const outRoot = mkdtempSync(join(tmpdir(), 'dns-cutover-test-'));
afterAll(() => rmSync(outRoot, { recursive: true, force: true }));

type Resource = { Type: string; Properties: Record<string, any>; DependsOn?: string[] };
type Entry = { stack: string; id: string; key: string };

/** Every stack of a deployment of stage `prod` with the custom domain in a Route 53 zone of the account. */
function deployment(region: string, context: { [key: string]: string }) {
  const app = cdkApp(mkdtempSync(join(outRoot, 'app-')));
  const settings = readDeploySettings(
    (key) =>
      ({
        account: '123456789012',
        region,
        mailFrom: 'licenses@example.com',
        domainName: 'licenses.example.com',
        hostedZoneId: 'Z0123456789ABC',
        hostedZoneName: 'example.com',
        ...context,
      })[key],
  );
  const stacks = buildStacks(app, settings, { bundle: false });
  const templates = ([stacks.service, stacks.edgeCertificate, stacks.edgeFirewall].filter(Boolean) as Stack[]).map((stack) => ({
    stack,
    resources: Template.fromStack(stack).toJSON().Resources as { [id: string]: Resource },
  }));
  /** Each record set as CloudFormation identifies it (stack and logical id) and as Route 53 does (zone, name, type). */
  const records: Entry[] = templates.flatMap(({ stack, resources }) =>
    Object.entries(resources)
      .filter(([, resource]) => resource.Type === 'AWS::Route53::RecordSet')
      .map(([id, { Properties: p }]) => ({ stack: `${stack.region}|${stack.stackName}`, id, key: `${p.HostedZoneId}|${p.Name}|${p.Type}` })),
  );
  return { service: stacks.service, resources: templates[0]!.resources, records };
}

/**
 * What CloudFormation refuses when a stage moves from `before` to `after`: it creates a stack's new resources before it
 * deletes those the stack no longer has (cleanup comes last), so a record set created under a new logical id while one
 * of the same zone, name and type still stands fails ("Tried to create resource record set … but it already exists").
 * Nor may a record keep its logical id and change its name or type: that is a replacement, which also creates first.
 */
function refusedByCloudFormation(before: Entry[], after: Entry[]): string[] {
  const problems: string[] = [];
  for (const record of after) {
    const same = before.find((old) => old.stack === record.stack && old.id === record.id);
    if (same && same.key !== record.key) problems.push(`${record.id} replaced: ${same.key} → ${record.key}`);
    if (!same) for (const old of before.filter((o) => o.key === record.key)) problems.push(`${record.id} created while ${old.id} holds ${record.key}`);
  }
  return problems;
}

const duplicates = (records: Entry[]) => records.map((r) => r.key).filter((key, index, keys) => keys.indexOf(key) !== index);

describe.each([
  ['us-east-1', 'the certificate made in the stack itself'],
  ['eu-west-1', 'the certificate made by the us-east-1 stack'],
])('moving from dashboard=false to the front door with a hosted zone, in %s (%s)', (region) => {
  const apiOnly = deployment(region, { dashboard: 'false' });
  const frontDoor = deployment(region, {});

  it('holds one record set per name and type in each', () => {
    expect(duplicates(apiOnly.records)).toEqual([]);
    expect(duplicates(frontDoor.records)).toEqual([]);
    expect(apiOnly.records.map((r) => r.key)).toEqual(['Z0123456789ABC|licenses.example.com.|A']);
    expect(frontDoor.records.map((r) => r.key).sort()).toEqual(['Z0123456789ABC|licenses.example.com.|A', 'Z0123456789ABC|licenses.example.com.|AAAA']);
  });

  it('updates the A record in place, from the API’s domain to the distribution, and creates only the AAAA record', () => {
    expect(refusedByCloudFormation(apiOnly.records, frontDoor.records)).toEqual([]);
    // And back, should the front door have to go.
    expect(refusedByCloudFormation(frontDoor.records, apiOnly.records)).toEqual([]);
    const a = (d: typeof apiOnly) => d.resources[d.records.find((r) => r.key.endsWith('|A'))!.id]!.Properties.AliasTarget.DNSName;
    expect(a(apiOnly)).toEqual({ 'Fn::GetAtt': [logicalIdOf(apiOnly.service.customDomain!.domainName), 'RegionalDomainName'] });
    expect(a(frontDoor)).toEqual({ 'Fn::GetAtt': [logicalIdOf(frontDoor.service.frontDoor!.distribution), 'DomainName'] });
  });

  it('has the functions start refusing calls that come around the front door only once the name points at it', () => {
    const service: LicensingStack = frontDoor.service;
    const records = frontDoor.records.map((r) => r.id);
    for (const fn of Object.values(service.functions)) expect(frontDoor.resources[logicalIdOf(fn)]!.DependsOn).toEqual(expect.arrayContaining(records));
  });
});
