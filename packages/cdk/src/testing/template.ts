/** Reading a synthesized template in the infra tests: the one resource of a kind, a function with its role. */
import { Match, type Template } from 'aws-cdk-lib/assertions';
import { expect } from 'vitest';

/** A CloudFormation resource as `Template.findResources` returns it. */
export type Resource = {
  Type: string;
  Properties: Record<string, any>;
  DeletionPolicy?: string;
  Metadata?: Record<string, any>;
  DependsOn?: string[];
};

/** The one resource of a type whose properties match; fails the test when there are none or several. */
export function only(t: Template, type: string, props: Record<string, unknown> = {}): [string, Resource] {
  const found = Object.entries(t.findResources(type, { Properties: Match.objectLike(props) }));
  expect(found, `exactly one ${type} matching ${JSON.stringify(props)}`).toHaveLength(1);
  return found[0] as [string, Resource];
}

/** The function whose description starts with the given words, its role and the statements of the role's policies. */
export function lambdaFunction(t: Template, description: string) {
  const [id, resource] = only(t, 'AWS::Lambda::Function', {
    Description: Match.stringLikeRegexp(`^${description}`),
  });
  return { id, resource, ...roleOf(t, resource) };
}

/** The role of a function resource and every statement of the policies attached to it. */
export function roleOf(t: Template, fn: Resource) {
  const roleId: string = fn.Properties.Role['Fn::GetAtt'][0];
  const policies = Object.values(t.findResources('AWS::IAM::Policy')).filter((p) =>
    (p.Properties.Roles as { Ref: string }[]).some((r) => r.Ref === roleId),
  );
  const statements = policies.flatMap((p) => p.Properties.PolicyDocument.Statement as Record<string, any>[]);
  const role: Resource = t.toJSON().Resources[roleId];
  return { roleId, role, statements };
}

/** The ARN of the log group a function resource writes to. */
export const logGroupArnOf = (fn: Resource) => ({
  'Fn::GetAtt': [fn.Properties.LoggingConfig.LogGroup.Ref, 'Arn'],
});

/** The statement list shape every function role must keep: allows only, no wildcard action, no negations. */
export function expectLeastPrivilege(role: Resource, statements: Record<string, any>[]): void {
  for (const statement of statements) {
    for (const action of [statement.Action].flat()) expect(action).not.toContain('*');
    expect(statement.Effect).toBe('Allow');
    expect(statement.NotAction).toBeUndefined();
    expect(statement.NotResource).toBeUndefined();
  }
  expect(role.Properties.ManagedPolicyArns).toBeUndefined();
  expect(role.Properties.Policies).toBeUndefined();
  expect(role.Properties.AssumeRolePolicyDocument.Statement).toEqual([
    { Action: 'sts:AssumeRole', Effect: 'Allow', Principal: { Service: 'lambda.amazonaws.com' } },
  ]);
}
