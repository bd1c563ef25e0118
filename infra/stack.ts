import { CfnOutput, Stack, type StackProps } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import type { Construct } from 'constructs';
import { McpEndpoint, type McpEndpointProps } from './constructs/mcp-endpoint.ts';

/** Properties of the {@link McpStack}: the `StackProps` plus the ones below. */
export interface McpStackProps extends StackProps {
  /**
   * Settings of the MCP endpoint.
   * @default - every McpEndpoint default
   */
  readonly endpoint?: McpEndpointProps;
  /**
   * SNS topic (existing, by ARN) that receives alarm and recovery notifications.
   * @default - none: alarms show on the dashboard only
   */
  readonly alarmTopicArn?: string;
}

/** The deployable stack: it composes one MCP endpoint and states the outputs a user needs to connect to it. */
export class McpStack extends Stack {
  readonly endpoint: McpEndpoint;

  constructor(scope: Construct, id: string, props: McpStackProps = {}) {
    super(scope, id, props);
    const alarmActions = props.alarmTopicArn
      ? [new SnsAction(sns.Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn))]
      : undefined;
    this.endpoint = new McpEndpoint(this, 'Mcp', {
      ...props.endpoint,
      ...(alarmActions ? { alarmActions } : {}),
    });

    new CfnOutput(this, 'McpEndpointUrl', {
      description: 'MCP endpoint (Streamable HTTP): give this URL to MCP clients',
      value: this.endpoint.url,
    });
    new CfnOutput(this, 'OutputBucketName', {
      description: 'Bucket holding large tool outputs until they expire',
      value: this.endpoint.outputs.bucketName,
    });
    new CfnOutput(this, 'McpFunctionName', {
      description: 'MCP Lambda function',
      value: this.endpoint.mcpFunction.functionName,
    });
    new CfnOutput(this, 'McpLogGroupName', {
      description: 'Structured JSON logs of the MCP function (one "request" line per HTTP request)',
      value: this.endpoint.mcpFunction.logGroup.logGroupName,
    });
    const auth = this.endpoint.auth;
    if (auth) {
      new CfnOutput(this, 'AuthorizationServer', {
        description: 'Issuer of the access tokens this endpoint accepts',
        value: auth.issuer,
      });
      new CfnOutput(this, 'ProtectedResourceMetadataUrl', {
        description: 'RFC 9728 metadata that tells MCP clients where to get a token',
        value: auth.metadataUrl,
      });
    }
    if (auth?.cognito) {
      new CfnOutput(this, 'CognitoUserPoolId', {
        description: 'User pool of the endpoint: add users here (admin-created; no self sign-up)',
        value: auth.cognito.userPool.userPoolId,
      });
      new CfnOutput(this, 'CognitoClientId', {
        description: 'OAuth client id to give MCP clients (public client, authorization code with PKCE)',
        value: auth.cognito.client.userPoolClientId,
      });
      new CfnOutput(this, 'CognitoSignInUrl', {
        description: 'Managed sign-in domain of the user pool',
        value: auth.cognito.domain.baseUrl(),
      });
    }
    new CfnOutput(this, 'DashboardUrl', {
      description: 'CloudWatch dashboard of the endpoint',
      value: this.endpoint.monitoring.dashboardUrl,
    });
  }
}
