import { clientText } from '../protocol/client-text.ts';
import { InvalidParamsError, MissingCapabilityError } from '../protocol/errors.ts';
import type { JSONObject, JSONValue } from '../protocol/types.ts';
import { isJsonObject } from '../protocol/json.ts';

/**
 * Multi round-trip requests (2026-07-28, SEP-2322 "InputRequiredResult"): a stateless server that needs the
 * client's help (a question for the user, an LLM completion, the client's roots) answers the original request
 * with `resultType: "input_required"` and a map of input requests; the client fulfils them and retries the
 * same request with `inputResponses` and the server's opaque `requestState`. Nothing is kept in memory between
 * the rounds, so any Lambda instance can serve the retry.
 */

/** A server-to-client request embedded in an InputRequiredResult (schema: `InputRequest`). */
export type InputRequest =
  | { method: 'elicitation/create'; params: JSONObject }
  | { method: 'sampling/createMessage'; params: JSONObject }
  | { method: 'roots/list'; params?: JSONObject };

/** What the client answered to each input request of the previous round, by key (schema: `InputResponses`). */
export type InputResponses = Readonly<Record<string, JSONObject>>;

/** What a handler learns of a multi round-trip request (empty in round one, and where the revision has none). */
export interface InputContext {
  /**
   * Capabilities the client declared on this request (2026-07-28 `_meta`); absent where the revision does not say
   * (the handshake era does not repeat them on requests).
   */
  clientCapabilities?: JSONObject;
  /** The client's answers to the previous round's input requests, by key; empty in round one. */
  inputResponses: InputResponses;
  /** The state handed to `inputRequired` in the previous round, verified; undefined in round one. */
  requestState: JSONValue | undefined;
  /**
   * True where a question to the client ends the call, which the client retries with the answer (2026-07-28);
   * absent where a question is asked mid-call (the handshake era).
   */
  asksInRounds?: boolean;
}

/** The handler's request for client input; the server turns it into an InputRequiredResult. */
export class InputRequired {
  constructor(
    /** The requests, by keys the handler chooses and later finds in `inputResponses`. */
    readonly inputRequests: Readonly<Record<string, InputRequest>>,
    /** State to carry to the retry; sealed (encrypted and authenticated) before it leaves the server. */
    readonly state?: JSONValue,
  ) {}
}

/**
 * Returned from a tool or prompt handler to ask the client for input before finishing, e.g.
 * `return inputRequired({ confirm: { method: 'elicitation/create', params: { message, requestedSchema } } })`.
 * The client retries the request with the answers in `ctx.inputResponses` and `state` in `ctx.requestState`.
 */
export function inputRequired(
  inputRequests: Readonly<Record<string, InputRequest>>,
  state?: JSONValue,
): InputRequired {
  return new InputRequired(inputRequests, state);
}

/** The client capability each kind of input request relies on (schema: `ClientCapabilities`). */
const CAPABILITY_OF: Readonly<Record<InputRequest['method'], string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/**
 * Checks that every input request names a known method and relies only on capabilities the client declared.
 * Spec (2026-07-28, basic/lifecycle): a server MUST NOT rely on an undeclared capability; it answers
 * MissingRequiredClientCapabilityError (-32021, HTTP 400) with `data.requiredCapabilities` as a
 * ClientCapabilities object, e.g. `{ "sampling": {} }`; the transport answers it with HTTP 400.
 */
export function checkInputRequests(request: InputRequired, clientCapabilities: JSONObject): void {
  const missing: Record<string, JSONObject> = {};
  for (const [key, input] of Object.entries(request.inputRequests)) {
    const capability = CAPABILITY_OF[input?.method];
    if (capability === undefined) {
      throw new Error(`input request "${key}" has unsupported method ${JSON.stringify(input?.method)}`);
    }
    if (!isJsonObject(clientCapabilities[capability])) missing[capability] = {};
  }
  if (Object.keys(missing).length > 0) {
    throw new MissingCapabilityError(missing);
  }
}

/** Builds the wire form of an InputRequiredResult (schema: `InputRequiredResult`), requestState already sealed. */
export function inputRequiredResult(request: InputRequired, requestState: string | undefined): JSONObject {
  const inputRequests = Object.fromEntries(
    Object.entries(request.inputRequests).map(([key, input]) => [
      key,
      { method: input.method, ...(input.params !== undefined ? { params: input.params } : {}) },
    ]),
  );
  return {
    resultType: 'input_required',
    inputRequests,
    ...(requestState !== undefined ? { requestState } : {}),
  };
}

/**
 * Reads `inputResponses` from a retried request. The field is optional; when present it must map keys to result
 * objects (schema: `InputResponses`), otherwise the request is a protocol error (-32602). Keys the handler did
 * not ask for are passed along and ignored by handlers that do not look for them.
 */
export function readInputResponses(value: unknown): InputResponses {
  if (value === undefined) return {};
  if (!isJsonObject(value)) {
    throw new InvalidParamsError(
      'inputResponses must be an object mapping input request keys to their results',
    );
  }
  for (const [key, response] of Object.entries(value)) {
    if (!isJsonObject(response)) {
      throw new InvalidParamsError(
        `inputResponses.${clientText(key)} must be the result object of the input request`,
        { key: clientText(key) },
      );
    }
  }
  return value as InputResponses;
}
