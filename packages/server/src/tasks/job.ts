import { clientKeyOf } from '../auth/principal.ts';
import type { Principal } from '../contracts/principal.ts';
import { MAX_JSON_DEPTH } from '../limits.ts';
import { isJsonObject, nestsDeeperThan } from '../protocol/json.ts';
import type { JSONObject } from '../protocol/types.ts';
import { eraFromWire, type Era } from '../protocol/versions.ts';
import { isTaskId } from './policy.ts';

/**
 * A start of one run of a task's tool: what the MCP function hands to a worker (an asynchronous Lambda invocation,
 * or a promise in the same process). It names the task and carries the live caller of the request that caused
 * the run, which the record never stores.
 */
export interface TaskJob {
  /** Version of this contract between the MCP function and the worker. */
  version: 1;
  taskId: string;
  /** Owner tag of the caller: with the id, the task's storage key. */
  owner?: string;
  /** The run to start (a second delivery of the same run is ignored). */
  round: number;
  /** The authenticated caller, for `ctx.principal`. */
  principal?: Principal;
  /** On the wire by its wire name (`taskJobPayload` in launchers.ts). */
  era: Era;
  protocolVersion: string;
  /** The capabilities the client declared on the request; input requests may rely only on these. */
  clientCapabilities: JSONObject;
}

/**
 * Hands a run to a worker; resolves once the worker is sure to get it (Lambda accepted the event). `signal` (the
 * invocation's deadline) ends the attempt, which then fails; an aborted start may still have been accepted.
 */
export type TaskLauncher = (job: TaskJob, options?: { signal?: AbortSignal }) => Promise<void>;

const OWNER = /^[0-9a-f]{64}$/;
const isString = (v: unknown): v is string => typeof v === 'string';

function isPrincipal(value: unknown): value is Principal {
  if (!isJsonObject(value)) return false;
  const { subject, issuer, clientId, scopes, expiresAt, key } = value;
  return (
    isString(subject) &&
    isString(issuer) &&
    isString(key) &&
    typeof expiresAt === 'number' &&
    (clientId === undefined || isString(clientId)) &&
    Array.isArray(scopes) &&
    scopes.every(isString)
  );
}

/** Reads a job from an invocation payload; undefined when it is not one (the worker then does nothing). */
export function parseTaskJob(value: unknown): TaskJob | undefined {
  if (!isJsonObject(value) || value.version !== 1) return undefined;
  const { taskId, owner, round, principal, protocolVersion, clientCapabilities } = value;
  const era = eraFromWire(value.era);
  if (!isTaskId(taskId) || (owner !== undefined && !(isString(owner) && OWNER.test(owner)))) return undefined;
  if (!Number.isSafeInteger(round) || (round as number) < 1) return undefined;
  if (principal !== undefined && !isPrincipal(principal)) return undefined;
  if (!era || !isString(protocolVersion) || !isJsonObject(clientCapabilities)) return undefined;
  // The client's declaration, walked again by whatever reads it: never deeper than a message may nest.
  if (nestsDeeperThan(clientCapabilities, MAX_JSON_DEPTH)) return undefined;
  const job = { ...(value as unknown as TaskJob), era };
  // The client key is derived again where it is used, never read from the payload: a job sent before the key
  // existed has none, and one derivation (auth/principal.ts) is the only source of it.
  if (job.principal)
    job.principal = { ...job.principal, clientKey: clientKeyOf(job.principal.key, job.principal.clientId) };
  return job;
}
