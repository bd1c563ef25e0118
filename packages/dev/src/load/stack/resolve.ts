/**
 * Which deployed resources `--stack NAME` names: the stack's outputs give the MCP function, its log group and the
 * endpoint URL (the template's McpFunctionName, McpLogGroupName and McpEndpointUrl); its resources give the API and
 * the stage that serve the URL, found by the API id in an execute-api host, else through the custom domain's API
 * mapping, else as the stack's only API.
 */
import type {
  DescribeStackResourcesCommandOutput,
  DescribeStacksCommandOutput,
  StackResource,
} from '@aws-sdk/client-cloudformation';
import type { GetApiMappingsCommandOutput } from '@aws-sdk/client-apigatewayv2';
import { AwsReadError, type Aws } from './aws.ts';

/** The API in front of the function: an HTTP API or a REST API, and the stage that serves the endpoint. */
export interface StackApi {
  kind: 'http' | 'rest';
  id: string;
  stage: string;
}

/** What the stack deployed, as far as the reads found it. */
export interface StackTarget {
  functionName: string;
  logGroupName?: string;
  endpointUrl?: string;
  api?: StackApi;
}

const API_TYPES: Readonly<Record<string, StackApi['kind']>> = {
  'AWS::ApiGatewayV2::Api': 'http',
  'AWS::ApiGateway::RestApi': 'rest',
};
const STAGE_TYPES: Readonly<Record<StackApi['kind'], string>> = {
  http: 'AWS::ApiGatewayV2::Stage',
  rest: 'AWS::ApiGateway::Stage',
};

/** The stack's outputs by key; an AwsReadError when it cannot be read or is not a stack of this template. */
async function outputsOf(aws: Aws, stack: string): Promise<Record<string, string>> {
  const answer = await aws.read<DescribeStacksCommandOutput>(
    'cloudFormation',
    new aws.sdk.cloudFormation.DescribeStacksCommand({ StackName: stack }),
    'cloudformation:DescribeStacks',
  );
  const outputs: Record<string, string> = {};
  for (const output of answer.Stacks?.[0]?.Outputs ?? [])
    if (output.OutputKey && output.OutputValue) outputs[output.OutputKey] = output.OutputValue;
  if (!outputs.McpFunctionName)
    throw new AwsReadError(`stack ${stack} has no McpFunctionName output: is it a stack of this template?`);
  return outputs;
}

/** The API id an execute-api URL names in its host, if it is one. */
const executeApiId = (url: string) => /^([a-z0-9]+)\.execute-api\./.exec(new URL(url).hostname)?.[1];

/** The API and stage a custom domain maps at the root of the URL, through its API mappings. */
async function mappedApi(aws: Aws, url: string): Promise<{ id: string; stage: string } | undefined> {
  const answer = await aws.read<GetApiMappingsCommandOutput>(
    'apiGatewayV2',
    new aws.sdk.apiGatewayV2.GetApiMappingsCommand({ DomainName: new URL(url).hostname }),
    'apigateway:GET',
  );
  const items = answer.Items ?? [];
  const mapping = items.find((m) => !m.ApiMappingKey) ?? (items.length === 1 ? items[0] : undefined);
  return mapping?.ApiId && mapping.Stage ? { id: mapping.ApiId, stage: mapping.Stage } : undefined;
}

/**
 * The stage of `api` among the stack's resources: the stage the CDK made under the API's construct (its logical
 * id starts with the API's, less the API's 8-character hash), else the stack's only stage of that kind.
 */
function stageOf(api: StackResource, kind: StackApi['kind'], resources: StackResource[]): string | undefined {
  const stages = resources.filter((r) => r.ResourceType === STAGE_TYPES[kind] && r.PhysicalResourceId);
  const prefix = (api.LogicalResourceId ?? '').replace(/[0-9A-F]{8}$/, '');
  const under = stages.filter((s) => prefix && s.LogicalResourceId?.startsWith(prefix));
  const stage = under.length === 1 ? under[0] : stages.length === 1 ? stages[0] : undefined;
  return stage?.PhysicalResourceId;
}

/** The API and stage serving `url` among the stack's resources; an AwsReadError saying why when none is found. */
async function apiOf(aws: Aws, stack: string, url: string): Promise<StackApi> {
  const answer = await aws.read<DescribeStackResourcesCommandOutput>(
    'cloudFormation',
    new aws.sdk.cloudFormation.DescribeStackResourcesCommand({ StackName: stack }),
    'cloudformation:DescribeStackResources',
  );
  const resources = answer.StackResources ?? [];
  const apis = resources.filter((r) => r.ResourceType! in API_TYPES && r.PhysicalResourceId);
  const byId = (id: string | undefined) => apis.find((r) => r.PhysicalResourceId === id);
  let api = byId(executeApiId(url));
  let stage: string | undefined;
  if (!api && apis.length > 1) {
    const mapped = await mappedApi(aws, url);
    api = byId(mapped?.id);
    stage = mapped?.stage;
  }
  api ??= apis.length === 1 ? apis[0] : undefined;
  if (!api) throw new AwsReadError(`no API of stack ${stack} serves ${url}`);
  const kind = API_TYPES[api.ResourceType!]!;
  stage ??= stageOf(api, kind, resources);
  if (!stage)
    throw new AwsReadError(`cannot tell which stage of API ${api.PhysicalResourceId} serves ${url}`);
  return { kind, id: api.PhysicalResourceId!, stage };
}

/**
 * Resolves the stack: its function (without which there is nothing to read: an AwsReadError), and what else it
 * finds, with a line in `problems` for each part it could not.
 */
export async function resolveStack(
  aws: Aws,
  stack: string,
  url: string,
): Promise<{ target: StackTarget; problems: string[] }> {
  const outputs = await outputsOf(aws, stack);
  const target: StackTarget = {
    functionName: outputs.McpFunctionName!,
    ...(outputs.McpLogGroupName ? { logGroupName: outputs.McpLogGroupName } : {}),
    ...(outputs.McpEndpointUrl ? { endpointUrl: outputs.McpEndpointUrl } : {}),
  };
  const problems: string[] = [];
  try {
    target.api = await apiOf(aws, stack, url);
  } catch (error) {
    if (!(error instanceof AwsReadError)) throw error;
    problems.push(`the API's throttle not read: ${error.message}`);
  }
  return { target, problems };
}
