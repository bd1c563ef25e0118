import { CfnOutput, Stack, Validations, type StackProps } from 'aws-cdk-lib';
import { SnsAction } from 'aws-cdk-lib/aws-cloudwatch-actions';
import * as sns from 'aws-cdk-lib/aws-sns';
import * as subscriptions from 'aws-cdk-lib/aws-sns-subscriptions';
import type { Construct } from 'constructs';
import { McpEndpoint, TransactionSearch, type McpEndpointAuth, type McpEndpointProps } from '@mcp-lambda/cdk';

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
  /**
   * Email address subscribed to a new alarm topic (confirm the subscription from the email AWS sends); not with
   * `alarmTopicArn`.
   * @default - none
   */
  readonly alarmEmail?: string;
  /**
   * Turns on CloudWatch Transaction Search, which X-Ray's OTLP endpoint needs before it takes the spans of
   * `endpoint.tracing`. One setting per account and region: leave it off where it is already on.
   * @default false
   */
  readonly transactionSearch?: boolean;
}

/** One stack output: its id, what it is for, its value. */
type OutputRow = readonly [id: string, description: string, value: string];

/** With `auth: oauth`: who issues tokens and where clients learn it; with the bridge, how people sign in. */
function authRows(auth: McpEndpointAuth, region: string): OutputRow[] {
  const rows: OutputRow[] = [
    [
      'AuthorizationServer',
      auth.bridge
        ? 'The authorization bridge: MCP clients register, sign in and get tokens here (they find it from the endpoint)'
        : 'Issuer of the access tokens this endpoint accepts',
      auth.issuer,
    ],
    [
      'ProtectedResourceMetadataUrl',
      'RFC 9728 metadata that tells MCP clients where to get a token',
      auth.metadataUrl,
    ],
  ];
  if (!auth.cognito || !auth.bridge) return rows;
  const poolId = auth.cognito.userPool.userPoolId;
  return [
    ...rows,
    [
      'CognitoUserPoolId',
      'User pool people sign in with: add users here (admin-created; no self sign-up)',
      poolId,
    ],
    [
      'CreateUserCommand',
      'Creates a user (replace the address); Cognito emails a temporary password, TOTP is set up at first sign-in',
      `aws cognito-idp admin-create-user --user-pool-id ${poolId} ` +
        `--region ${region} --username you@example.com ` +
        '--user-attributes Name=email,Value=you@example.com Name=email_verified,Value=true',
    ],
    [
      'CognitoSignInUrl',
      'Managed sign-in domain the authorization bridge sends people to',
      auth.cognito.domain.baseUrl(),
    ],
    [
      'AuthorizationBridgeLogGroupName',
      'Structured JSON logs of the authorization bridge (one "request" line per HTTP request)',
      auth.bridge.function.logGroup.logGroupName,
    ],
    [
      'SignOutCommand',
      "Signs one user out everywhere (replace the subject: the user's sub, as the bridge's log names it)",
      `npm run signout -- <subject> --table ${auth.bridge.table.tableName} --region ${region}`,
    ],
  ];
}

/** The outputs a user needs to connect to the endpoint and operate it, in the order `cdk deploy` prints them. */
function outputRows(endpoint: McpEndpoint, region: string, emailTopic: sns.ITopic | undefined): OutputRow[] {
  const { auth, domain, mcpFunction } = endpoint;
  return [
    ['McpEndpointUrl', 'MCP endpoint (Streamable HTTP): give this URL to MCP clients', endpoint.url],
    ['OutputBucketName', 'Bucket holding large tool outputs until they expire', endpoint.outputs.bucketName],
    ['McpFunctionName', 'MCP Lambda function', mcpFunction.functionName],
    [
      'McpLogGroupName',
      'Structured JSON logs of the MCP function (one "request" line per HTTP request)',
      mcpFunction.logGroup.logGroupName,
    ],
    ...(auth ? authRows(auth, region) : []),
    ...(emailTopic
      ? ([
          [
            'AlarmTopicArn',
            'Alarm notifications; confirm the subscription from the email AWS sends to the address',
            emailTopic.topicArn,
          ],
        ] as const)
      : []),
    ...(domain
      ? ([
          [
            'DomainTarget',
            domain.record
              ? `Regional API Gateway domain the alias record of ${domain.host} points at`
              : `Point a CNAME (or alias) record for ${domain.host} at this regional API Gateway domain`,
            domain.regionalDomainName,
          ],
        ] as const)
      : []),
    ['DashboardUrl', 'CloudWatch dashboard of the endpoint', endpoint.monitoring.dashboardUrl],
  ];
}

/** The deployable stack: it composes one MCP endpoint and states the outputs a user needs to connect to it. */
export class McpStack extends Stack {
  readonly endpoint: McpEndpoint;

  constructor(scope: Construct, id: string, props: McpStackProps = {}) {
    super(scope, id, props);
    const alarm = this.alarmTopic(props);
    const alarmActions = alarm ? [new SnsAction(alarm)] : undefined;
    this.endpoint = new McpEndpoint(this, 'Mcp', {
      ...props.endpoint,
      ...(alarmActions ? { alarmActions } : {}),
    });
    if (props.transactionSearch) new TransactionSearch(this, 'TransactionSearch');

    const rows = outputRows(this.endpoint, this.region, alarm && props.alarmEmail ? alarm : undefined);
    for (const [outputId, description, value] of rows) new CfnOutput(this, outputId, { description, value });
  }

  /** The alarm topic: an existing one by ARN, a new one with an email subscription, or none. */
  private alarmTopic(props: McpStackProps): sns.ITopic | undefined {
    if (props.alarmTopicArn && props.alarmEmail)
      throw new Error(
        'McpStack: give alarmTopicArn or alarmEmail, not both (subscribe the address to the topic)',
      );
    if (props.alarmTopicArn) return sns.Topic.fromTopicArn(this, 'AlarmTopic', props.alarmTopicArn);
    if (!props.alarmEmail) return undefined;
    const topic = new sns.Topic(this, 'AlarmTopic', { displayName: 'MCP endpoint alarms', enforceSSL: true });
    topic.addSubscription(new subscriptions.EmailSubscription(props.alarmEmail));
    Validations.of(topic).acknowledge({
      id: 'AwsSolutions-SNS2',
      reason:
        'CloudWatch alarms cannot publish to a topic encrypted with the AWS managed SNS key, and the messages are ' +
        'alarm state changes with no sensitive content; a customer managed key would cost more than it protects.',
    });
    return topic;
  }
}
