import { parseArgs } from 'node:util';
import type { LoadEra } from './mcp-request.ts';
import { artilleryCommand, type ArtilleryCommand } from './artillery/command.ts';
import { loadModel } from './options-model.ts';
import { endpoint, quote, sharedOptions, UsageError, type ReportFile } from './option-values.ts';
import { scenarioCommand } from './scenario/command.ts';
import type { ScenarioOptions } from './scenario/types.ts';
import type { OpenPlan } from './schedule.ts';
import type { StackOption } from './stack/side.ts';

export { UsageError, type ReportFile } from './option-values.ts';
export { type ArtilleryCommand } from './artillery/command.ts';
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
  /** The deployed stack behind `url`: its limits before the run, its Lambda side from CloudWatch after it. */
  stack?: StackOption;
}

/**
 * What the command line asked for: a run of one tool or of a scenario (with notices for stderr about adjusted
 * options), or the usage text.
 */
export type ParsedCommand =
  | { kind: 'run'; options: LoadOptions; notices: string[] }
  | { kind: 'scenario'; options: ScenarioOptions; notices: string[] }
  | ArtilleryCommand
  | { kind: 'help' };

const OPTIONS = {
  url: { type: 'string' },
  scenario: { type: 'string' },
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
  stack: { type: 'string' },
  region: { type: 'string' },
  emit: { type: 'string' },
  'from-artillery': { type: 'string' },
  help: { type: 'boolean', short: 'h' },
} as const;

/**
 * Parses the words; every failure is a one-line UsageError (Node's own messages can span lines). The one word that
 * is no option's value is the folder of `--emit artillery DIR`, right after it.
 */
function words(argv: readonly string[]) {
  let parsed;
  try {
    parsed = parseArgs({
      args: [...argv],
      strict: true,
      allowPositionals: true,
      tokens: true,
      options: OPTIONS,
    });
  } catch (error) {
    throw new UsageError((error as Error).message.replace(/\s*\n\s*/g, ' '));
  }
  const seen = new Set<string>();
  let folder: string | undefined;
  for (const [i, token] of parsed.tokens.entries()) {
    if (token.kind === 'positional') {
      const before = parsed.tokens[i - 1];
      if (before?.kind !== 'option' || before.name !== 'emit' || folder !== undefined)
        throw new UsageError(`unexpected argument ${quote(token.value)}: every value follows its option`);
      folder = token.value;
    }
    if (token.kind !== 'option' || token.name === 'header') continue;
    if (seen.has(token.name)) throw new UsageError(`--${token.name} is given more than once`);
    seen.add(token.name);
  }
  return { ...parsed.values, ...(folder !== undefined ? { folder } : {}) };
}

/** Parses and validates the command line of `npm run load`. */
export function parseLoadArgs(argv: readonly string[]): ParsedCommand {
  const values = words(argv);
  if (values.help) return { kind: 'help' };
  if (values.emit !== undefined || values['from-artillery'] !== undefined) return artilleryCommand(values);

  if (values.scenario !== undefined) return scenarioCommand(values.scenario, values);
  if (values.url === undefined) throw new UsageError('--url is required');
  const url = endpoint(values.url, '--url');

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

  const version = values['protocol-version'];
  if (version !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(version)) {
    throw new UsageError(`--protocol-version must look like 2025-11-25 (got ${quote(version)})`);
  }

  const { notices, ...model } = loadModel(values);
  return {
    kind: 'run',
    notices,
    options: {
      url,
      tool,
      args: args as Record<string, unknown>,
      ...model,
      ...sharedOptions(values),
      era,
      ...(version !== undefined ? { protocolVersion: version } : {}),
      initialize: values.initialize ?? false,
    },
  };
}
