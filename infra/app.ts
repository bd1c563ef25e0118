import { App, Validations } from 'aws-cdk-lib';
import { AwsSolutionsChecks } from 'cdk-nag';
import { applyAuthDefault, readSettings } from './context.ts';
import { tools } from '../functions/mcp/tools/index.ts';
import { McpStack } from './stack.ts';

// Entry point of `cdk synth` / `cdk deploy` (cdk.json "app"): settings come from CDK context, see infra/README.md.
const app = new App();
const settings = applyAuthDefault(readSettings((key) => app.node.tryGetContext(key)));
new McpStack(app, settings.stackName, {
  description: 'Stateless MCP server on AWS Lambda behind API Gateway (mcp-lambda-template)',
  // The tools the MCP function serves, by name, for their dashboard rows and alarms.
  endpoint: { ...settings.endpoint, toolNames: tools.map((tool) => tool.name) },
  ...(settings.alarmTopicArn ? { alarmTopicArn: settings.alarmTopicArn } : {}),
  ...(settings.alarmEmail ? { alarmEmail: settings.alarmEmail } : {}),
});
// Every synth runs the AWS Solutions checks; a finding without a written suppression fails the synth.
Validations.of(app).addPlugins(new AwsSolutionsChecks(app));
