import { Names, Stack, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** `outbox-fanout` → `OutboxFanout`: construct ids from the names used elsewhere (surfaces, function names). */
export function pascalCase(name: string): string {
  return name.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** A construct's resource as the template (and cdk-nag's findings, `<LogicalId.Arn>`) names it. */
export function logicalIdOf(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}

/** The longest region code and the hyphen after it (`ap-southeast-5-`). */
const REGION_PREFIX_LENGTH = 15;

/**
 * The name of a resource `id` in `scope` whose names are the account's, not the region's (CloudFront policies and
 * origin access controls): the region, then the path (the stack's name, so the stage, first). The same stage in a
 * second region of the account then names it differently. `maxLength` is the service's limit.
 */
export function accountWideName(scope: IConstruct, id: string, maxLength: number): string {
  const path = Names.uniqueResourceName(scope, { maxLength: maxLength - REGION_PREFIX_LENGTH - id.length - 1, separator: '-' });
  return `${Stack.of(scope).region}-${path}-${id}`;
}
