import './cdk-home.ts';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { App, Stack } from 'aws-cdk-lib';

/**
 * The feature flags and settings of the project's cdk.json (tests run at the project root): `new App({ context })`
 * does not read cdk.json by itself.
 */
export const CDK_JSON_CONTEXT: Record<string, unknown> = JSON.parse(
  readFileSync(join(process.cwd(), 'cdk.json'), 'utf8'),
).context;

/** A fresh, empty stack for the test of one construct: cdk.json flags, no bundling, no CloudFormation validation. */
export function newStack(): Stack {
  const app = new App({
    context: { ...CDK_JSON_CONTEXT, 'aws:cdk:bundling-stacks': [] },
    builtinCloudFormationValidation: false,
  });
  return new Stack(app, 'Test');
}
