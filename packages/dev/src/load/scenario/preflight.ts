/**
 * The preflight of a scenario run: the bearer token got once (auth.ts), then `tools/list` (after `initialize` in
 * the handshake era) to check that every tool the flows call is there and to learn the parameters each mirrors
 * into headers. A broken setup fails in a second, with the reason, instead of after a run of identical failures.
 */
import type { Agent } from 'node:http';
import { mirroredParams, type MirroredParam } from '../mcp-request.ts';
import { PreflightError } from '../preflight.ts';
import { bearerToken } from './auth.ts';
import { FlowClient, type Target } from './client.ts';
import type { ScenarioOptions } from './types.ts';

const MAX_LIST_PAGES = 50;
/** A token command may sign in: it gets longer than one request. */
const AUTH_TIMEOUT_S = 60;

/** The tools the scenario's steps call, `read_output` included. */
function toolsCalled(options: ScenarioOptions): Set<string> {
  const tools = new Set<string>();
  for (const flow of options.scenario.flows)
    for (const step of flow.steps) {
      if ('tool' in step) tools.add(step.tool);
      if (step.kind === 'read_output') tools.add('read_output');
    }
  return tools;
}

/** The listed tools' input schemas by name, following at most 50 pages. */
async function listTools(client: FlowClient): Promise<Map<string, unknown>> {
  const listed = new Map<string, unknown>();
  let cursor: string | undefined;
  for (let page = 0; page < MAX_LIST_PAGES; page++) {
    const reply = await client.request('tools/list', cursor ? { cursor } : {});
    if ('failure' in reply) throw new PreflightError(`tools/list failed: ${reply.failure.detail}`);
    const tools = Array.isArray(reply.result.tools) ? (reply.result.tools as Record<string, unknown>[]) : [];
    for (const tool of tools) listed.set(String(tool.name), tool.inputSchema);
    if (typeof reply.result.nextCursor !== 'string') break;
    cursor = reply.result.nextCursor;
  }
  return listed;
}

/** Runs the preflight; answers the target every flow run sends to. */
export async function scenarioPreflight(options: ScenarioOptions, agent: Agent): Promise<Target> {
  const { scenario } = options;
  const headers: Record<string, string> = { ...scenario.headers, ...options.headers };
  const token =
    options.token ?? (scenario.auth ? await bearerToken(scenario.auth, AUTH_TIMEOUT_S) : undefined);
  if (token !== undefined) headers.authorization = `Bearer ${token}`;
  const target = { url: new URL(options.url), agent, timeoutS: options.timeoutS, headers };
  const client = new FlowClient({ ...target, mirrored: new Map() }, scenario.era);
  if (scenario.era === 'handshake') {
    const opened = await client.open();
    if ('failure' in opened) throw new PreflightError(`initialize failed: ${opened.failure.detail}`);
  }
  const listed = await listTools(client);
  const missing = [...toolsCalled(options)].filter((tool) => !listed.has(tool));
  if (missing.length > 0) {
    throw new PreflightError(
      `the server does not list ${missing.map((t) => JSON.stringify(t)).join(', ')} ` +
        `(it lists: ${[...listed.keys()].join(', ') || 'none'})`,
    );
  }
  const mirrored = new Map<string, readonly MirroredParam[]>();
  for (const [tool, schema] of listed) mirrored.set(tool, mirroredParams(schema));
  return { ...target, mirrored };
}
