/**
 * The MCP client of one flow run: requests in the flow's era, with the run's headers (the bearer token, the
 * scenario's headers) and, in the handshake era, the session `initialize` opened. Every answer is read as the
 * single-tool run reads one: no answer (a timeout, a transport error), a non-2xx status, a body that is not a
 * JSON-RPC response or a JSON-RPC error each end the exchange as a failure of that kind; else its result.
 */
import type { Agent } from 'node:http';
import { rpcAnswer } from '../classify.ts';
import { exchange } from '../exchange.ts';
import {
  HANDSHAKE_VERSION,
  initializeRequest,
  rpcNotification,
  rpcRequest,
  toolCallRequest,
  type LoadEra,
  type MirroredParam,
  type RequestOptions,
  type WireRequest,
} from '../mcp-request.ts';
import type { Kind } from '../samples.ts';

/** The tasks extension, which a stateless request declares to get (and to poll) a task. */
export const TASKS_EXTENSION = 'io.modelcontextprotocol/tasks';
const TASKS = { extensions: { [TASKS_EXTENSION]: {} } };

/** What every flow run of a load shares: where to send, the connection pool, the timeout and the headers. */
export interface Target {
  url: URL;
  agent: Agent;
  timeoutS: number;
  /** The bearer token and the scenario's extra headers (lower-case names). */
  headers: Readonly<Record<string, string>>;
  /** The parameters each tool mirrors into headers (2026-07-28 `x-mcp-header`), from the preflight's tools/list. */
  mirrored: ReadonlyMap<string, readonly MirroredParam[]>;
}

/** A failed exchange: its kind and what was seen. */
export interface Failure {
  kind: Exclude<Kind, 'ok' | 'tool-error'>;
  detail: string;
}

/** How an exchange ended: the result of a JSON-RPC response, or a failure. */
export type Reply = { result: Record<string, unknown> } | { failure: Failure };

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

/** One client: a flow run's requests, counted, in one era (and, in the handshake era, one session). */
export class FlowClient {
  /** HTTP requests sent. */
  requests = 0;
  private nextId = 1;
  private readonly headers: Record<string, string>;
  private protocolVersion: string | undefined;

  constructor(
    private readonly target: Target,
    readonly era: LoadEra,
  ) {
    this.headers = { ...target.headers };
  }

  private options(capabilities?: Record<string, unknown>): RequestOptions {
    return {
      era: this.era,
      id: this.nextId++,
      headers: this.headers,
      ...(this.protocolVersion ? { protocolVersion: this.protocolVersion } : {}),
      ...(capabilities ? { capabilities } : {}),
    };
  }

  private async post(request: WireRequest, expectAnswer = true): Promise<Reply & { session?: string }> {
    this.requests++;
    const body = Buffer.from(request.body, 'utf8');
    const { url, agent, timeoutS } = this.target;
    const ended = await exchange(url, request, body, agent, timeoutS);
    if (ended.kind !== 'answer') return { failure: ended };
    if (!expectAnswer) {
      if (ended.status >= 200 && ended.status <= 299) return { result: {} };
      return { failure: { kind: 'non-2xx', detail: `HTTP ${ended.status}` } };
    }
    const answer = rpcAnswer(ended.status, ended.headers['content-type'], ended.body);
    if (!('result' in answer)) return { failure: { kind: answer.outcome, detail: answer.detail } };
    if (!isObject(answer.result))
      return { failure: { kind: 'malformed', detail: 'the result is not an object' } };
    const session = ended.headers['mcp-session-id'];
    return { result: answer.result, ...(typeof session === 'string' ? { session } : {}) };
  }

  /** Handshake era: `initialize`, keeping the session it names, then `notifications/initialized`. */
  async open(): Promise<Reply> {
    const reply = await this.post(initializeRequest({ headers: this.headers, id: this.nextId++ }));
    if ('failure' in reply) return reply;
    const version = reply.result.protocolVersion;
    this.protocolVersion = typeof version === 'string' ? version : HANDSHAKE_VERSION;
    if (reply.session !== undefined) this.headers['mcp-session-id'] = reply.session;
    const notified = await this.post(rpcNotification('notifications/initialized', {}, this.options()), false);
    return 'failure' in notified ? notified : { result: reply.result };
  }

  /** Any request; `name` is what the stateless era mirrors into `Mcp-Name` (a task id for `tasks/get`). */
  request(method: string, params: Record<string, unknown>, name?: string): Promise<Reply> {
    const options = this.options(this.era === 'stateless' && method.startsWith('tasks/') ? TASKS : undefined);
    return this.post(rpcRequest(method, params, options, name !== undefined ? { name } : {}));
  }

  /** A `tools/call`, declaring `capabilities` (stateless era), with `extra` parameters beside the arguments. */
  call(
    tool: string,
    args: Record<string, unknown>,
    capabilities?: Record<string, unknown>,
    extra: Record<string, unknown> = {},
  ): Promise<Reply> {
    const mirrored = this.target.mirrored.get(tool) ?? [];
    return this.post(toolCallRequest(tool, args, this.options(capabilities), mirrored, extra));
  }
}
