/**
 * What every option of `npm run load` shares: the usage error, numbers within a range, the headers a user may set,
 * the report file, and the deployed stack whose side the run reads.
 */
import type { StackOption } from './stack/side.ts';

/** A report file to write, its format told by its extension. */
export interface ReportFile {
  path: string;
  format: 'html' | 'svg';
}

/** A usage error: the message (one line) names the option and what is wrong. */
export class UsageError extends Error {
  override name = 'UsageError';
}

const ECHO_LIMIT = 80;

/** A client-supplied value quoted for an error message, capped so a huge argument cannot flood the terminal. */
export const quote = (raw: string): string =>
  JSON.stringify(raw.length > ECHO_LIMIT ? `${raw.slice(0, ECHO_LIMIT)}…` : raw);

/** A number from `min` to `max` (an integer when asked), `fallback` when the option was not given. */
export function number(
  raw: string | undefined,
  option: string,
  fallback: number,
  min: number,
  max: number,
  integer: boolean,
): number {
  if (raw === undefined) return fallback;
  const value = Number(raw);
  if (
    raw.trim() === '' ||
    !Number.isFinite(value) ||
    (integer && !Number.isInteger(value)) ||
    value < min ||
    value > max
  ) {
    throw new UsageError(
      `--${option} must be ${integer ? 'an integer' : 'a number'} from ${min} to ${max} (got ${quote(raw)})`,
    );
  }
  return value;
}

/** What a header name must look like (an HTTP token). */
export const HEADER_NAME = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;

/** Headers the command writes itself: a second value would contradict it or break the framing. */
const MANAGED_HEADERS: Readonly<Record<string, string>> = {
  'content-length': 'the command sets it',
  'transfer-encoding': 'the command sets it',
  'mcp-protocol-version': 'use --protocol-version',
  'mcp-method': 'the command mirrors the method itself',
  'mcp-name': 'the command mirrors the tool name itself',
};

/** Why the command cannot take a header of this name from its user, or undefined when it can. */
export function managedHeader(name: string): string | undefined {
  const lower = name.toLowerCase();
  if (lower.startsWith('mcp-param-')) return 'the command mirrors declared parameters itself';
  return MANAGED_HEADERS[lower];
}

/** An http or https endpoint named by `option` (--url, or a scenario's url), as a normalized href. */
export function endpoint(raw: string, option: string): string {
  let url: URL;
  try {
    url = new URL(raw);
  } catch {
    throw new UsageError(`${option} is not a URL (got ${quote(raw)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`${option} must be http or https (got ${quote(url.protocol)})`);
  }
  return url.href;
}

function header(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon > 0 ? raw.slice(0, colon).trim() : '';
  if (!HEADER_NAME.test(name)) {
    throw new UsageError(`--header must look like "Name: value" (got ${quote(raw)})`);
  }
  const managed = managedHeader(name);
  if (managed !== undefined) throw new UsageError(`--header cannot set ${name}: ${managed}`);
  return [name.toLowerCase(), raw.slice(colon + 1).trim()];
}

function reportFile(path: string): ReportFile {
  const format = /\.html?$/i.test(path) ? 'html' : /\.svg$/i.test(path) ? 'svg' : undefined;
  if (format === undefined) {
    throw new UsageError(`--report must name a .html or .svg file (got ${quote(path)})`);
  }
  return { path, format };
}

/** The options a single-tool run and a scenario run read alike, as the command line gave them. */
export interface SharedValues {
  header?: string[] | undefined;
  token?: string | undefined;
  timeout?: string | undefined;
  json?: boolean | undefined;
  report?: string | undefined;
  stack?: string | undefined;
  region?: string | undefined;
}

/** `--stack NAME` (a CloudFormation stack's name or ARN) and `--region R`, which only goes with it. */
function stackOption(values: SharedValues): { stack?: StackOption } {
  if (values.stack === undefined) {
    if (values.region !== undefined)
      throw new UsageError('--region is the region of --stack: give --stack with it');
    return {};
  }
  if (
    !/^([A-Za-z][A-Za-z0-9-]{0,127}|arn:[\w-]+:cloudformation:[\w-]+:\d{12}:stack\/[^\s]{1,300})$/.test(
      values.stack,
    )
  )
    throw new UsageError(
      `--stack must be a CloudFormation stack name (a letter, then letters, digits and -) or its ARN (got ${quote(values.stack)})`,
    );
  if (values.region !== undefined && !/^[a-z]{2}(-[a-z]+)+-\d{1,2}$/.test(values.region))
    throw new UsageError(`--region must be an AWS region such as eu-west-1 (got ${quote(values.region)})`);
  return { stack: { name: values.stack, ...(values.region !== undefined ? { region: values.region } : {}) } };
}

/** The headers, token, timeout, output and report file of either run. */
export function sharedOptions(values: SharedValues) {
  const headers = Object.fromEntries((values.header ?? []).map(header));
  if (values.token !== undefined && values.token.trim() === '')
    throw new UsageError('--token must not be empty');
  if (values.token !== undefined && headers.authorization !== undefined) {
    throw new UsageError(
      '--token and --header "Authorization: …" both set the Authorization header: give one',
    );
  }
  return {
    ...(values.token !== undefined ? { token: values.token.trim() } : {}),
    headers,
    timeoutS: number(values.timeout, 'timeout', 10, 1, 120, false),
    json: values.json ?? false,
    ...(values.report !== undefined ? { report: reportFile(values.report) } : {}),
    ...stackOption(values),
  };
}
