/**
 * Stand-ins for the AWS SDK clients of `npm run load -- --stack`: each service answers the commands a test scripts
 * by class name (`lambda.GetAccountSettingsCommand`), from the command's input, with no network and no account, and
 * notes every call. The commands themselves are the SDK's, built by the code under test.
 */
import type { AwsClients, Sender } from '../../src/load/stack/aws.ts';

type Service = keyof AwsClients;
type Answer = (input: any) => unknown;

/** A call a stand-in received: `service.CommandName` and its input. */
export interface Call {
  name: string;
  input: any;
}

/** Clients whose answers come from `script`; a command it does not script fails the test loudly. */
export function stubClients(script: Record<string, Answer>): { clients: AwsClients; calls: Call[] } {
  const calls: Call[] = [];
  const sender = (service: Service): Sender => ({
    send: async (command: object) => {
      const name = `${service}.${command.constructor.name}`;
      const input = (command as { input: unknown }).input;
      calls.push({ name, input });
      const answer = script[name];
      if (!answer) throw new Error(`the stub does not script ${name}`);
      return answer(input);
    },
  });
  const clients: AwsClients = {
    cloudFormation: sender('cloudFormation'),
    apiGateway: sender('apiGateway'),
    apiGatewayV2: sender('apiGatewayV2'),
    lambda: sender('lambda'),
    cloudWatch: sender('cloudWatch'),
    logs: sender('logs'),
  };
  return { clients, calls };
}

/** An error as the SDK throws it for a call the credentials may not make. */
export function accessDenied(action: string): never {
  const error = new Error(
    `User: arn:aws:iam::123456789012:user/tester is not authorized to perform: ${action}`,
  );
  error.name =
    action.startsWith('cloudformation') || action.startsWith('cloudwatch')
      ? 'AccessDenied'
      : 'AccessDeniedException';
  throw Object.assign(error, { $metadata: { httpStatusCode: 403 } });
}

const FUNCTION = 'McpServer-McpMcpFunctionBFAF0890-abcdef';

/** The outputs of a stack of this template, its endpoint on `url`. */
export const outputs = (url: string) => ({
  Stacks: [
    {
      StackName: 'McpServer',
      Outputs: [
        { OutputKey: 'McpEndpointUrl', OutputValue: url },
        { OutputKey: 'McpFunctionName', OutputValue: FUNCTION },
        { OutputKey: 'McpLogGroupName', OutputValue: `/aws/lambda/${FUNCTION}` },
      ],
    },
  ],
});

const resource = (LogicalResourceId: string, ResourceType: string, PhysicalResourceId: string) => ({
  LogicalResourceId,
  ResourceType,
  PhysicalResourceId,
});

/** The API resources of the HTTP API stack with the authorization bridge: two HTTP APIs, each with its stage. */
export const HTTP_RESOURCES = {
  StackResources: [
    resource('McpMcpFunctionBFAF0890', 'AWS::Lambda::Function', FUNCTION),
    resource('McpAuthorizationApiApi1A2B3C4D', 'AWS::ApiGatewayV2::Api', 'bridge0001'),
    resource('McpAuthorizationApiApiStage5E6F7A8B', 'AWS::ApiGatewayV2::Stage', '$default'),
    resource('McpHttpApiC5270DA5', 'AWS::ApiGatewayV2::Api', 'abc123'),
    resource('McpHttpApiStageDC00247B', 'AWS::ApiGatewayV2::Stage', 'live'),
  ],
};

/** The API resources of the streaming REST API stack. */
export const REST_RESOURCES = {
  StackResources: [
    resource('McpMcpFunctionBFAF0890', 'AWS::Lambda::Function', FUNCTION),
    resource('McpRestApi0926AE37', 'AWS::ApiGateway::RestApi', 'rst789'),
    resource('McpRestApiDeploymentStageprod72BCFABB', 'AWS::ApiGateway::Stage', 'prod'),
  ],
};

export { FUNCTION };
