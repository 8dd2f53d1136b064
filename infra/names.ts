import { Stack, type CfnElement } from 'aws-cdk-lib';
import type { IConstruct } from 'constructs';

/** `outbox-fanout` → `OutboxFanout`: construct ids from the names used elsewhere (surfaces, function names). */
export function pascalCase(name: string): string {
  return name.replace(/(^|[-_])(\w)/g, (_, __, c: string) => c.toUpperCase());
}

/** A construct's resource as the template (and cdk-nag's findings, `<LogicalId.Arn>`) names it. */
export function logicalIdOf(construct: IConstruct): string {
  return Stack.of(construct).getLogicalId(construct.node.defaultChild as CfnElement);
}
