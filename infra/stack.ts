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

    const { auth, mcpFunction, monitoring } = this.endpoint;
    const outputs: (readonly [id: string, description: string, value: string])[] = [
      ['McpEndpointUrl', 'MCP endpoint (Streamable HTTP): give this URL to MCP clients', this.endpoint.url],
      [
        'OutputBucketName',
        'Bucket holding large tool outputs until they expire',
        this.endpoint.outputs.bucketName,
      ],
      ['McpFunctionName', 'MCP Lambda function', mcpFunction.functionName],
      [
        'McpLogGroupName',
        'Structured JSON logs of the MCP function (one "request" line per HTTP request)',
        mcpFunction.logGroup.logGroupName,
      ],
      ...(auth
        ? ([
            ['AuthorizationServer', 'Issuer of the access tokens this endpoint accepts', auth.issuer],
            [
              'ProtectedResourceMetadataUrl',
              'RFC 9728 metadata that tells MCP clients where to get a token',
              auth.metadataUrl,
            ],
          ] as const)
        : []),
      ...(auth?.cognito
        ? ([
            [
              'CognitoUserPoolId',
              'User pool of the endpoint: add users here (admin-created; no self sign-up)',
              auth.cognito.userPool.userPoolId,
            ],
            [
              'CognitoClientId',
              'OAuth client id to give MCP clients (public client, authorization code with PKCE)',
              auth.cognito.client.userPoolClientId,
            ],
            ['CognitoSignInUrl', 'Managed sign-in domain of the user pool', auth.cognito.domain.baseUrl()],
          ] as const)
        : []),
      ['DashboardUrl', 'CloudWatch dashboard of the endpoint', monitoring.dashboardUrl],
    ];
    for (const [outputId, description, value] of outputs)
      new CfnOutput(this, outputId, { description, value });
  }
}
