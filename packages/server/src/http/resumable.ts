import { streamResumption } from '../asking/lazy.ts';
import type { Rendezvous } from '../asking/rendezvous.ts';
import { Defaults } from '../limits.ts';
import type { Revision } from '../protocol/versions.ts';
import type { Session } from '../sessions/session-id.ts';
import type { Admitted } from './admit.ts';
import { LiveStream } from './live.ts';
import type { TransportOptions } from './transport-options.ts';
import type { InvocationContext } from './types.ts';

/**
 * The live stream of a request, resumable where it can be (SEP-1699): in the handshake era, with a session (what
 * its log is bound to), when the server keeps cut streams' events (its rendezvous). 2026-07-28 has no `GET` stream
 * to resume from, so its streams carry no ids.
 */
export function liveStreamFor(
  options: TransportOptions,
  resume: Rendezvous | undefined,
  request: { revision: Revision; session: Session | undefined; admitted: Admitted; ctx: InvocationContext },
): LiveStream {
  const { revision, session, admitted, ctx } = request;
  const heartbeatMs = options.streamHeartbeatMs ?? Defaults.streamHeartbeatMs;
  if (!resume || !session || revision.era !== 'handshake') return new LiveStream(heartbeatMs);
  const setup = {
    store: resume.store,
    sessionId: session.id,
    ...(admitted.principal ? { principal: admitted.principal.key } : {}),
    ...(ctx.deadline !== undefined ? { deadline: ctx.deadline } : {}),
    log: ctx.log,
  };
  const timing = {
    retryMs: options.streamRetryMs ?? Defaults.streamRetryMs,
    logAfterMs: options.streamLogAfterMs ?? Defaults.streamLogAfterMs,
  };
  return new LiveStream(heartbeatMs, streamResumption(setup, timing));
}

/**
 * The signal that cancels a call when its client goes away (spec: Streamable HTTP). A resumable stream that is
 * open is cut instead and the call goes on, its events logged for the client to resume (2025-11-25: "disconnection
 * is not cancellation"); a stream the client never saw an id of cannot be resumed, so its call is cancelled.
 */
export function cancelOnDisconnect(disconnected: AbortSignal, live: LiveStream | undefined): AbortSignal {
  if (!live?.resumable) return disconnected;
  const cancel = new AbortController();
  const gone = () => {
    if (!(live.open && live.cut())) cancel.abort(disconnected.reason);
  };
  if (disconnected.aborted) gone();
  else disconnected.addEventListener('abort', gone, { once: true });
  return cancel.signal;
}
