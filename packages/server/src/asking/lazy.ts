import type { AwsClientOptions } from '../aws-client.ts';
import type { InputContext, InputRequired } from '../input/input-required.ts';
import type { RequestStateCodec } from '../input/request-state.ts';
import { requestStateKeySource, type RequestStateOptions } from '../input/request-state-options.ts';
import type { AnswerDesk } from './desk.ts';
import type { Rendezvous } from './rendezvous.ts';
import type { Sessions, SessionOptions } from '../sessions/sessions.ts';
import type { MidCallSetup } from './mid-call.ts';
import type { AskCall, Asker } from './types.ts';

/**
 * Asking as the start-up graph sees it: thin stand-ins that load the asking extension (extension.ts) on first use.
 * Only the extension's own modules may import them statically; everything on the start-up path goes through here.
 */

let chunk: Promise<typeof import('./extension.ts')> | undefined;

/** The asking extension, loaded once. */
export const loadAsking = () => (chunk ??= import('./extension.ts'));

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
function deferred(make: (chunk: typeof import('./extension.ts')) => Asker): Asker {
  let interrupt!: (request: InputRequired) => void;
  const interrupted = new Promise<InputRequired>((resolve) => (interrupt = resolve));
  let real: Promise<Asker> | undefined;
  const load = () =>
    (real ??= loadAsking().then((m) => {
      const asker = make(m);
      void asker.interrupted?.then(interrupt);
      return asker;
    }));
  return { interrupted, ask: async (request, call) => (await load()).ask(request, call) };
}

/** How a 2026-07-28 call asks (replay.ts). */
export const replayAsker = (input: InputContext): Asker => deferred((m) => m.replayAsker(input));

/** How a handshake-era call asks (handshake.ts). */
export const handshakeAsker = (
  setup: Omit<MidCallSetup, 'live' | 'session' | 'rendezvous'> & Partial<MidCallSetup>,
): Asker => deferred((m) => m.handshakeAsker(setup));

/** The answer desk of a rendezvous (desk.ts), loaded on the first answer a client sends. */
export function lazyDesk(rendezvous: Rendezvous): () => Promise<AnswerDesk> {
  let desk: Promise<AnswerDesk> | undefined;
  return () => (desk ??= loadAsking().then((m) => m.answerDesk(rendezvous)));
}

/**
 * The session keys kept in AWS Secrets Manager (secrets-manager.ts): the secret's string, read with the caller's
 * signal; the code and the SDK client load on the first read.
 */
export function secretsManagerKeys(
  secretArn: string,
  options: AwsClientOptions = {},
): (signal: AbortSignal) => Promise<string> {
  let real: Promise<(signal: AbortSignal) => Promise<string>> | undefined;
  return async (signal) =>
    (await (real ??= loadAsking().then((m) => m.secretsManagerReader(secretArn, options))))(signal);
}

/** The sessions of a server (sessions.ts), their code loaded on the first `initialize` or session id. */
export function lazySessions(options: SessionOptions): Sessions {
  let real: Promise<Sessions> | undefined;
  const load = () => (real ??= loadAsking().then((m) => m.createSessions(options)));
  return {
    issue: async (claims, principal, signal) => (await load()).issue(claims, principal, signal),
    open: async (id, principal, signal) => (await load()).open(id, principal, signal),
  };
}

/**
 * The `requestState` codec of a server (input/request-state.ts): its code and keys load on the first state to seal
 * or open, so a cold start pays for neither. A secret too short is refused now, when the server is built.
 */
export function lazyRequestState(options: RequestStateOptions): RequestStateCodec {
  const ephemeral = requestStateKeySource(options) === undefined;
  let real: Promise<RequestStateCodec> | undefined;
  const load = () => (real ??= loadAsking().then((m) => m.createRequestStateCodec(options)));
  return {
    ephemeral,
    seal: async (state, binding, scope) => (await load()).seal(state, binding, scope),
    open: async (token, binding, scope) => (await load()).open(token, binding, scope),
  };
}
