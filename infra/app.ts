import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { applyAuthDefault, ContextError, readSettings } from '@mcp-lambda/cdk';
import { tools } from '../src/tools/index.ts';
import { McpStack } from './stack.ts';

/**
 * A wrong setting, not a bug: a context value the app cannot read, or props a construct refuses (its plain `Error`
 * or the CDK's validation error, each naming the construct and the setting). A bug (TypeError, …) is not one.
 */
function isSettingProblem(error: unknown): error is Error {
  if (error instanceof ContextError) return true;
  return error instanceof Error && (error.constructor === Error || error.name === 'ValidationError');
}

// Entry point of `cdk synth` / `cdk deploy` (cdk.json "app"): settings come from CDK context, read by @mcp-lambda/cdk
// (readSettings), see infra/README.md.
const app = new App();
try {
  const settings = applyAuthDefault(readSettings((key) => app.node.tryGetContext(key)));
  new McpStack(app, settings.stackName, {
    description: 'Stateless MCP server on AWS Lambda behind API Gateway (mcp-lambda-template)',
    // The tools the MCP function serves, by name, for their dashboard rows and alarms.
    endpoint: { ...settings.endpoint, toolNames: tools.map((tool) => tool.name) },
    ...(settings.alarmTopicArn ? { alarmTopicArn: settings.alarmTopicArn } : {}),
    ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
    ...(settings.transactionSearch ? { transactionSearch: true } : {}),
  });
} catch (error) {
  if (!isSettingProblem(error)) throw error;
  // One line saying what to change, as `npm start` does; the CDK CLI then adds its own "exited with error 1".
  console.error(`cdk: ${error.message}`);
  process.exit(1);
}
// Every synth runs the AWS Solutions checks; a finding without a written suppression fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
