import type { CfnElement, Stack } from 'aws-cdk-lib';
import type { Template } from 'aws-cdk-lib/assertions';

export type Statement = { Effect?: string; Action: string | string[]; Resource: unknown; Condition?: unknown };

/** Every statement of the IAM policies attached to a function's role (none for a function without a policy). */
export function statementsOf(stack: Stack, template: Template, fn: { role?: unknown }): Statement[] {
  const role = (fn as { role: { node: { defaultChild?: unknown } } }).role;
  const roleId = stack.getLogicalId(role.node.defaultChild as CfnElement);
  const policies = Object.values(template.findResources('AWS::IAM::Policy', { Properties: { Roles: [{ Ref: roleId }] } })) as {
    Properties: { PolicyDocument: { Statement: Statement[] } };
  }[];
  return policies.flatMap((p) => p.Properties.PolicyDocument.Statement);
}

/** The actions of the statements that name `resource`. */
export const actionsOn = (statements: Statement[], resource: unknown) =>
  statements.filter((s) => JSON.stringify(s.Resource).includes(JSON.stringify(resource))).flatMap((s) => [s.Action].flat());
