import { parseArgs } from 'node:util';
import type { LoadEra } from './mcp-request.ts';
import { loadModel } from './options-model.ts';
import { number, quote, UsageError } from './option-values.ts';
import type { OpenPlan } from './schedule.ts';

export { UsageError } from './option-values.ts';
export { USAGE } from './usage.ts';

/** Everything one load run needs, validated. */
export interface LoadOptions {
  /** The MCP endpoint, e.g. http://127.0.0.1:3000/mcp. */
  url: string;
  tool: string;
  args: Record<string, unknown>;
  /** Closed model: concurrent connections, each sending its next request when its answer arrived. */
  connections: number;
  /** Seconds to run; ignored when `amount` is set (the open model's phases hold it too). */
  durationS: number;
  /** Stop after this many requests instead of after `durationS` (open model: the schedule holds at most these). */
  amount?: number;
  /** The open model: when set, requests arrive on this plan's schedule and `connections` goes unused. */
  open?: OpenPlan;
  /** Bearer token for the Authorization header. */
  token?: string;
  /** Extra request headers (lower-case names). */
  headers: Record<string, string>;
  era: LoadEra;
  /** Revision to claim (handshake: sent in `initialize` and `MCP-Protocol-Version`). */
  protocolVersion?: string;
  /** Send `initialize` (handshake) or `server/discover` (stateless) once before the load. */
  initialize: boolean;
  /** Seconds to wait for one response. */
  timeoutS: number;
  /** Print the report as JSON. */
  json: boolean;
  /** Also write a self-contained report file (HTML page or SVG image) with charts. */
  report?: ReportFile;
}

/** A report file to write, its format told by its extension. */
export interface ReportFile {
  path: string;
  format: 'html' | 'svg';
}

/** What the command line asked for: a run (with notices for stderr about adjusted options), or the usage text. */
export type ParsedCommand = { kind: 'run'; options: LoadOptions; notices: string[] } | { kind: 'help' };

/** Headers the command writes itself: a second value from --header would contradict it or break the framing. */
const MANAGED_HEADERS: Readonly<Record<string, string>> = {
  'content-length': 'the command sets it',
  'transfer-encoding': 'the command sets it',
  'mcp-protocol-version': 'use --protocol-version',
  'mcp-method': 'the command mirrors the method itself',
  'mcp-name': 'the command mirrors the tool name itself',
};

function header(raw: string): [string, string] {
  const colon = raw.indexOf(':');
  const name = colon > 0 ? raw.slice(0, colon).trim() : '';
  if (!/^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/.test(name)) {
    throw new UsageError(`--header must look like "Name: value" (got ${quote(raw)})`);
  }
  const lower = name.toLowerCase();
  const managed = lower.startsWith('mcp-param-')
    ? 'the command mirrors declared parameters itself'
    : MANAGED_HEADERS[lower];
  if (managed !== undefined) throw new UsageError(`--header cannot set ${name}: ${managed}`);
  return [lower, raw.slice(colon + 1).trim()];
}

function reportFile(path: string): ReportFile {
  const format = /\.html?$/i.test(path) ? 'html' : /\.svg$/i.test(path) ? 'svg' : undefined;
  if (format === undefined) {
    throw new UsageError(`--report must name a .html or .svg file (got ${quote(path)})`);
  }
  return { path, format };
}

const OPTIONS = {
  url: { type: 'string' },
  tool: { type: 'string' },
  args: { type: 'string' },
  connections: { type: 'string' },
  rate: { type: 'string' },
  'ramp-to': { type: 'string' },
  phases: { type: 'string' },
  'max-in-flight': { type: 'string' },
  duration: { type: 'string' },
  amount: { type: 'string' },
  era: { type: 'string' },
  'protocol-version': { type: 'string' },
  initialize: { type: 'boolean' },
  token: { type: 'string' },
  header: { type: 'string', multiple: true },
  timeout: { type: 'string' },
  json: { type: 'boolean' },
  report: { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/** Parses the words; every failure is a one-line UsageError (Node's own messages can span lines). */
function words(argv: readonly string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: false,
      tokens: true,
      options: OPTIONS,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\s*\n\s*/g, ' '));
  }
  const seen = new Set<string>();
  for (const token of parsed.tokens) {
    if (token.kind !== 'option' || token.name === 'header') continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once`);
    seen.add(token.name);
  }
  return parsed.values;
}

/** Parses and validates the command line of `npm run load`. */
export function parseLoadArgs(argv: readonly string[]): ParsedCommand {
  const values = words(argv);
  if (values.help) return { kind: 'help' };

  if (values.url === undefined) throw new UsageError('--url is required');
  let url: URL;
  try {
    url = new URL(values.url);
  } catch {
    throw new UsageError(`--url is not a URL (got ${quote(values.url)})`);
  }
  if (url.protocol !== 'http:' && url.protocol !== 'https:') {
    throw new UsageError(`--url must be http or https (got ${quote(url.protocol)})`);
  }

  const tool = values.tool ?? 'ping';
  if (!/^[A-Za-z0-9_.-]{1,128}$/.test(tool)) {
    throw new UsageError(`--tool must be 1-128 characters of A-Z a-z 0-9 _ - . (got ${quote(tool)})`);
  }

  let args: unknown = {};
  if (values.args !== undefined) {
    try {
      args = JSON.parse(values.args);
    } catch {
      throw new UsageError(`--args must be JSON (got ${quote(values.args)})`);
    }
  }
  if (typeof args !== 'object' || args === null || Array.isArray(args)) {
    throw new UsageError('--args must be a JSON object, e.g. \'{"a":1,"b":2}\'');
  }

  const era = values.era ?? 'handshake';
  if (era !== 'handshake' && era !== 'stateless')
    throw new UsageError(`--era must be handshake or stateless (got ${quote(era)})`);

  const headers = Object.fromEntries((values.header ?? []).map(header));
  const version = values['protocol-version'];
  if (version !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
    throw new UsageError(`--protocol-version must look like 2025-11-25 (got ${quote(version)})`);
  }
  if (values.token !== undefined && values.token.trim() === '')
    throw new UsageError('--token must not be empty');
  if (values.token !== undefined && headers.authorization !== undefined) {
    throw new UsageError(
      '--token and --header "Authorization: …" both set the Authorization header: give one',
    );
  }

  const { notices, ...model } = loadModel(values);
  return {
    kind: 'run',
    notices,
    options: {
      url: url.href,
      tool,
      args: args as Record<string, unknown>,
      ...model,
      ...(values.token !== undefined ? { token: values.token.trim() } : {}),
      headers,
      era,
      ...(version !== undefined ? { protocolVersion: version } : {}),
      initialize: values.initialize ?? false,
      timeoutS: number(values.timeout, 'timeout', 10, 1, 120, false),
      json: values.json ?? false,
      ...(values.report !== undefined ? { report: reportFile(values.report) } : {}),
    },
  };
}
