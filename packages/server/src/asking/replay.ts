import { nodeCrypto } from '../crypto.ts';
import { InputRequired, type InputContext, type InputRequest } from '../input/input-required.ts';
import { canonicalJson, isJsonObject } from '../protocol/json.ts';
import { tracedParams } from '../outbound.ts';
import type { JSONObject, JSONValue } from '../protocol/types.ts';
import { declares, notDeclared } from './questions.ts';
import { AskError, type Asker } from '../contracts/asking.ts';

/**
 * Asking in 2026-07-28 (SEP-2322 multi round-trip requests) with a linear handler. The first ask the handler cannot
 * answer from what it has ends the call with an InputRequiredResult for that one question (the pending promise never
 * settles, so no try/catch in the tool can swallow it). The client retries the call with the answer; the handler
 * runs again from the top, and each earlier ask settles at once with its recorded answer, carried sealed in
 * `requestState` with a digest of its question: a re-run that asks something else is refused, not mis-answered.
 * So code before an ask may run more than once: do side effects after the last ask.
 */

/** One answered question: a digest of the question and the client's result. */
interface Recorded {
  d: string;
  r: JSONObject;
}

/** The sealed state of an asking call: the answers so far and the question now pending. */
interface AskState {
  $asks: Recorded[];
  $pending: string;
}

/** Most characters of recorded answers carried between rounds: the sealed state must stay a modest token. */
const MAX_RECORDED_CHARS = 32 * 1024;

const digest = (request: InputRequest) =>
  nodeCrypto().createHash('sha256').update(canonicalJson(request)).digest('base64url').slice(0, 22);

/** The answers recorded in a request state, when it is an asking call's state. */
function recordedIn(state: unknown): { asks: Recorded[]; pending: string | undefined } {
  if (!isJsonObject(state) || !Array.isArray(state.$asks)) return { asks: [], pending: undefined };
  const asks = state.$asks.filter(
    (a): a is Recorded & JSONObject => isJsonObject(a) && typeof a.d === 'string' && isJsonObject(a.r),
  );
  return { asks, pending: typeof state.$pending === 'string' ? state.$pending : undefined };
}

/** The asker of one 2026-07-28 call, from what its request carried (`inputResponses`, `requestState`). */
export function replayAsker(input: InputContext): Asker {
  const { asks, pending } = recordedIn(input.requestState);
  let next = 0;
  let interrupt!: (request: InputRequired) => void;
  const interrupted = new Promise<InputRequired>((resolve) => (interrupt = resolve));
  return {
    interrupted,
    async ask(request) {
      if (!declares(input.clientCapabilities ?? {}, request)) throw notDeclared(request, true);
      const index = next++;
      const question = digest(request);
      const recorded = asks[index];
      if (recorded) {
        if (recorded.d !== question)
          throw new TypeError(
            'ctx.elicit/sample/roots: the handler asked a different question when it ran again with the answers; ' +
              'asks must not depend on anything but the arguments and earlier answers',
          );
        return recorded.r;
      }
      const key = `ask-${index}`;
      const answer = input.inputResponses[key];
      // Only the answer to the question this server left pending counts (never one the client made up in advance).
      if (index === asks.length && pending === question && answer !== undefined) {
        asks.push({ d: question, r: answer });
        return answer;
      }
      const state: AskState = { $asks: asks, $pending: question };
      if (JSON.stringify(state).length > MAX_RECORDED_CHARS)
        throw new AskError(
          'unavailable',
          'The answers gathered so far are too large to carry to another round (32 KB); ask fewer or smaller questions.',
        );
      // The trace context goes on the wire copy only: the digest above is of the question itself.
      const params = tracedParams(request.params);
      const sent = params === request.params ? request : ({ ...request, params } as InputRequest);
      interrupt(new InputRequired({ [key]: sent }, state as unknown as JSONValue));
      return new Promise<never>(() => undefined);
    },
  };
}
