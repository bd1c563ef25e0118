import type { AwsClientOptions } from '../aws-client.ts';
import { deferred, once } from '../lazy.ts';
import type { InputContext, InputRequired } from '../input/input-required.ts';
import type { RequestStateCodec } from '../input/request-state.ts';
import { requestStateKeySource, type RequestStateOptions } from '../input/request-state-options.ts';
import type { HandshakeSetup, handshakeCallState } from './handshake-state.ts';
import type { MidCallSetup } from './mid-call.ts';
import type { AskCall, Asker } from '../contracts/asking.ts';

/**
 * Asking as the start-up graph sees it: thin stand-ins that load the asking extension (extension.ts) on first use.
 * Only the extension's own modules may import them statically; everything on the start-up path goes through here.
 */

/** The asking extension, loaded once. */
export const loadAsking = once(() => import('./extension.ts'));

/** The `elicit`, `sample` and `roots` of a tool's context (questions.ts), loading their code on the first ask. */
export function askingMethods(asker: Asker | undefined, call: AskCall) {
  const real = async () => (await loadAsking()).askingMethods(asker, call);
  type Methods = ReturnType<typeof import('./questions.ts').askingMethods>;
  return {
    elicit: async (request: Parameters<Methods['elicit']>[0]) => (await real()).elicit(request),
    sample: async (request: Parameters<Methods['sample']>[0]) => (await real()).sample(request),
    roots: async () => (await real()).roots(),
  };
}

/** One asker loaded on its first ask; `interrupted` settles with the loaded one's (2026-07-28). */
function deferredAsker(make: (chunk: typeof import('./extension.ts')) => Asker): Asker {
  let interrupt!: (request: InputRequired) => void;
  const interrupted = new Promise<InputRequired>((resolve) => (interrupt = resolve));
  const load = once(() =>
    loadAsking().then((m) => {
      const asker = make(m);
      void asker.interrupted?.then(interrupt);
      return asker;
    }),
  );
  return { interrupted, ask: async (request, call) => (await load()).ask(request, call) };
}

/** How a 2026-07-28 call asks (replay.ts). */
export const replayAsker = (input: InputContext): Asker => deferredAsker((m) => m.replayAsker(input));

/** How a handshake-era call asks (handshake.ts). */
export const handshakeAsker = (
  setup: Omit<MidCallSetup, 'live' | 'session' | 'callState'> & Partial<MidCallSetup>,
): Asker => deferredAsker((m) => m.handshakeAsker(setup));

/**
 * The session keys kept in AWS Secrets Manager (secrets-manager.ts): the secret's string, read with the caller's
 * signal; the code and the SDK client load on the first read.
 */
export function secretsManagerKeys(
  secretArn: string,
  options: AwsClientOptions = {},
): (signal: AbortSignal) => Promise<string> {
  const reader = once(async () => (await loadAsking()).secretsManagerReader(secretArn, options));
  return async (signal) => (await reader())(signal);
}

/**
 * The handshake era's call state as the transport uses it (handshake-state.ts): sessions, answers, cancellations,
 * resumable streams; its code loads on the first `initialize`, session id, answer or resuming `GET`.
 */
export const lazyHandshakeCallState = (setup: HandshakeSetup) =>
  deferred<ReturnType<typeof handshakeCallState>, { keeps: boolean }>(
    async () => (await loadAsking()).handshakeCallState(setup),
    {
      session: true,
      issue: true,
      answer: true,
      cancel: true,
      stream: true,
      resume: true,
    },
    { keeps: setup.callState !== undefined },
  );

/**
 * The `requestState` codec of a server (input/request-state.ts): its code and keys load on the first state to seal
 * or open, so a cold start pays for neither. A secret too short is refused now, when the server is built.
 */
export function lazyRequestState(options: RequestStateOptions): RequestStateCodec {
  const ephemeral = requestStateKeySource(options) === undefined;
  return deferred<RequestStateCodec, Pick<RequestStateCodec, 'ephemeral'>>(
    async () => (await loadAsking()).createRequestStateCodec(options),
    { seal: true, open: true },
    { ephemeral },
  );
}
