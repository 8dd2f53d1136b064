import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { synthesizeReleaseTemplates, type Template } from '../../infra/releases/release-stacks.js';
import { committedReleases } from '../../infra/releases/releases.js';
import { tableHazards, updateHazards } from '../../infra/releases/update-safety.js';

const { version } = JSON.parse(readFileSync(new URL('../../package.json', import.meta.url), 'utf8')) as { version: string };
const releases = committedReleases();
const previous = releases.at(-1)!;
// Synthesized up front: a busy machine can take longer than a test's timeout per synthesis.
const current = synthesizeReleaseTemplates();

const WHY =
  'A stage deployed from the previous release must take this one by `cdk deploy` alone (DECISIONS §21): no stateful ' +
  'resource replaced, no property CloudFormation cannot update in place. A table change goes in two releases ' +
  '(docs/deploy.md, "Changing the table’s shape").';

/** The baseline's template with one resource's properties changed. */
function changed(type: string, change: (properties: Record<string, any>) => void, template = previous.templates['front-door']!): Template {
  const copy = structuredClone(template);
  const resource = Object.values(copy.Resources).find((r) => r.Type === type)!;
  change(resource.Properties!);
  return copy;
}
const tableChanged = (change: (properties: Record<string, any>) => void) => changed('AWS::DynamoDB::Table', change);
const hazardsOf = (next: Template) => updateHazards(previous.templates['front-door']!, next);

describe('releases', () => {
  it('include this version’s, with its notes in CHANGELOG.md (npm run release:template; docs/deploy.md, "Cutting a release")', () => {
    expect(releases.map((release) => release.version)).toContain(version);
    expect(readFileSync(new URL('../../CHANGELOG.md', import.meta.url), 'utf8')).toContain(`\n## ${version} `);
  });

  it('each take the one before by an update in place', () => {
    const hazards = releases.slice(1).flatMap((release, i) =>
      Object.entries(release.templates).flatMap(([name, template]) => {
        const before = releases[i]!.templates[name];
        return before ? updateHazards(before, template).map((hazard) => `${releases[i]!.version} → ${release.version} (${name}): ${hazard}`) : [];
      }),
    );
    expect(hazards, WHY).toEqual([]);
  });
});

describe(`an update from the previous release (${previous.version})`, () => {
  it('replaces no stateful resource and changes nothing CloudFormation cannot update in place', () => {
    expect(Object.keys(current).sort()).toEqual(Object.keys(previous.templates).sort());
    const hazards = Object.entries(current).flatMap(([name, template]) => updateHazards(previous.templates[name]!, template).map((hazard) => `${name}: ${hazard}`));
    expect(hazards, WHY).toEqual([]);
  });
});

describe('the update check', () => {
  const tableId = Object.entries(previous.templates['front-door']!.Resources).find(([, r]) => r.Type === 'AWS::DynamoDB::Table')![0];

  it('names a change of an index’s projection or keys', () => {
    const hazards = hazardsOf(
      tableChanged((table) => {
        table.GlobalSecondaryIndexes[3].Projection = { ProjectionType: 'INCLUDE', NonKeyAttributes: ['status'] };
        table.GlobalSecondaryIndexes[4].KeySchema[1].AttributeName = 'gsi5sk2';
      }),
    );
    expect(hazards).toEqual([`${tableId}: index gsi4 changes its projection`, `${tableId}: index gsi5 changes its keys`]);
  });

  it('names a change of the stream’s view and of the TTL attribute', () => {
    const hazards = hazardsOf(
      tableChanged((table) => {
        table.StreamSpecification.StreamViewType = 'NEW_AND_OLD_IMAGES';
        table.TimeToLiveSpecification.AttributeName = 'expiresAt';
      }),
    );
    expect(hazards).toEqual([`${tableId}: the stream's view changes from NEW_IMAGE to NEW_AND_OLD_IMAGES`, `${tableId}: TTL moves from ttl to expiresAt`]);
  });

  it('takes one new index, and names two in one update', () => {
    const index = (n: number) => ({
      IndexName: `gsi${n}`,
      KeySchema: [
        { AttributeName: `gsi${n}pk`, KeyType: 'HASH' },
        { AttributeName: `gsi${n}sk`, KeyType: 'RANGE' },
      ],
      Projection: { ProjectionType: 'ALL' },
    });
    const adding = (...numbers: number[]) =>
      tableChanged((table) => {
        for (const n of numbers) {
          table.GlobalSecondaryIndexes.push(index(n));
          table.AttributeDefinitions.push({ AttributeName: `gsi${n}pk`, AttributeType: 'S' }, { AttributeName: `gsi${n}sk`, AttributeType: 'S' });
        }
      });
    expect(hazardsOf(adding(6))).toEqual([]);
    expect(hazardsOf(adding(6, 7))).toEqual([`${tableId}: adds gsi6, adds gsi7 in one update (one index at a time)`]);
  });

  it('names a stateful resource replaced, and one removed', () => {
    const replaced = changed('AWS::DynamoDB::Table', (table) => (table.KeySchema[1].AttributeName = 'sk2'));
    expect(hazardsOf(replaced)).toEqual([expect.stringMatching(new RegExp(`^${tableId} \\(AWS::DynamoDB::Table\\) would be replaced \\(KeySchema`))]);

    const removed = structuredClone(previous.templates['front-door']!);
    const [keyId] = Object.entries(removed.Resources).find(([, r]) => r.Type === 'AWS::KMS::Key')!;
    delete removed.Resources[keyId];
    expect(hazardsOf(removed)).toContain(`${keyId} (AWS::KMS::Key) is removed from the stack`);
  });

  it('names a resource replaced under the name it keeps', () => {
    const hazards = hazardsOf(changed('AWS::SNS::Topic', (topic) => (topic.FifoTopic = true)));
    expect(hazards).toEqual([
      expect.stringMatching(/\(AWS::SNS::Topic\) would be replaced \(FifoTopic\)$/),
      expect.stringMatching(/\(AWS::SNS::Topic\) would be replaced under the name it keeps \(TopicName\), which CloudFormation refuses$/),
      // and with it the e-mail subscription its recipient confirmed
      expect.stringMatching(/\(AWS::SNS::Subscription\) would be replaced \(TopicArn\)$/),
    ]);
  });

  it('takes what updates in place: a function’s code and settings', () => {
    expect(hazardsOf(changed('AWS::Lambda::Function', (fn) => ((fn.MemorySize = 2048), (fn.Code = { ZipFile: 'exports.handler = async () => ({})' }))))).toEqual([]);
  });
});

/**
 * docs/deploy.md, "From a commit before 1.0.0": a table whose gsi4 and gsi5 projected a list of license attributes
 * reaches 1.0.0's shape by four updates CloudFormation can each make, where one would fail.
 */
describe('the steps from a commit before 1.0.0', () => {
  type Table = { GlobalSecondaryIndexes: { IndexName: string; KeySchema: unknown; Projection: unknown }[] };
  const released = Object.values(releases[0]!.templates['front-door']!.Resources).find((r) => r.Type === 'AWS::DynamoDB::Table')!.Properties as Table;
  const listed = (index: Table['GlobalSecondaryIndexes'][number]) =>
    ['gsi4', 'gsi5'].includes(index.IndexName) ? { ...index, Projection: { ProjectionType: 'INCLUDE', NonKeyAttributes: ['licenseKey', 'status'] } } : index;
  const before: Table = { ...released, GlobalSecondaryIndexes: released.GlobalSecondaryIndexes.map(listed) };
  const without = (table: Table, name: string): Table => ({ ...table, GlobalSecondaryIndexes: table.GlobalSecondaryIndexes.filter((i) => i.IndexName !== name) });
  const withReleased = (table: Table, name: string): Table => ({
    ...table,
    GlobalSecondaryIndexes: [...table.GlobalSecondaryIndexes, released.GlobalSecondaryIndexes.find((i) => i.IndexName === name)!],
  });

  it('are each an update CloudFormation can make, where 1.0.0 at once is not', () => {
    expect(tableHazards('Table', before, released)).toEqual(['Table: index gsi4 changes its projection', 'Table: index gsi5 changes its projection']);
    const step1 = without(before, 'gsi4');
    const step2 = withReleased(step1, 'gsi4');
    const step3 = without(step2, 'gsi5');
    const steps = [before, step1, step2, step3, released];
    expect(steps.slice(1).flatMap((next, i) => tableHazards(`step ${i + 1}`, steps[i]!, next))).toEqual([]);
  });
});
