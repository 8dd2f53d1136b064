import { readFileSync } from 'node:fs';
import { Stack } from 'aws-cdk-lib';
import { Template } from 'aws-cdk-lib/assertions';
import { describe, expect, it } from 'vitest';
import { serviceTable } from '../../infra/constructs/service-table.js';
import { tableShapeOf, type TableShape } from '../../infra/releases/table-shape.js';

/** The table's shape as of 1.0.0, committed: what every deployed stage has. */
const FROZEN = JSON.parse(readFileSync(new URL('../../infra/releases/table-shape.json', import.meta.url), 'utf8')) as TableShape;

const CHANGING_THE_SHAPE =
  'The table’s shape is fixed since 1.0.0 (DECISIONS §21): CloudFormation cannot change an index’s keys or projection, ' +
  'nor the stream’s view or the TTL attribute, of a deployed table. A new index is added in one release and the old one ' +
  'removed in a later one: docs/deploy.md, "Changing the table’s shape"; infra/releases/table-shape.json changes with each step.';

function synthesizedShape(): TableShape {
  const stack = new Stack();
  serviceTable(stack);
  const [table] = Object.values(Template.fromStack(stack).findResources('AWS::DynamoDB::Table')) as { Properties: Record<string, unknown> }[];
  return tableShapeOf(table!.Properties);
}

describe('the table’s shape', () => {
  const shape = synthesizedShape();

  it('is the one every stage has had since 1.0.0', () => {
    expect(shape, CHANGING_THE_SHAPE).toEqual(FROZEN);
  });

  it('projects ALL or KEYS_ONLY in every index, never a list that grows with new attributes', () => {
    const listed = shape.GlobalSecondaryIndexes.filter((index) => !['ALL', 'KEYS_ONLY'].includes(index.Projection.ProjectionType));
    expect(listed.map((index) => `${index.IndexName}: ${index.Projection.ProjectionType}`), CHANGING_THE_SHAPE).toEqual([]);
  });
});
