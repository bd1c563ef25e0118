import type { PolledCallState } from '../call-state/stores.ts';
import type { JSONObject, JSONRPCRequest, JSONRPCResponse, RequestId } from '../protocol/types.ts';
import type { Revision } from '../protocol/versions.ts';
import { resumableStream } from '../resume/resumable-stream.ts';
import { resumeStream } from '../resume/resume.ts';
import { namedSession, sessionHeader, withSession } from '../sessions/named-session.ts';
import type { Session } from '../sessions/session-id.ts';
import { createSessions, type SessionOptions } from '../sessions/sessions.ts';
import type { Admission } from '../wire/admitted.ts';
import { refusal } from '../wire/replies.ts';
import type { TransportOptions } from '../wire/transport-options.ts';
import type { HttpRequest, InvocationContext, StreamingInvocationContext } from '../wire/types.ts';
import { answerDesk } from './desk.ts';
import { receiveAnswer, receiveCancellation } from './receive.ts';

/**
 * The handshake era's call state, served to the transport (the interface is the transport's own,
 * http/handshake-state.ts, which this module satisfies without naming it: the feature depends on no request layer).
 * Loaded with the asking extension on the first session, answer or resuming `GET`.
 */

/** What it is made of: the server's sessions, its call state if it keeps one, and the transport's stream options. */
export interface HandshakeSetup {
  sessions: SessionOptions;
  callState?: PolledCallState;
  streams: TransportOptions;
}

/** A `GET` where no stream can be resumed: as the transport refuses it without a call state. */
const NO_GET = refusal(405, 'Method not allowed: GET; use POST', { allow: 'POST' });

/** Each step of the transport's, over the sessions and the call state of one server. */
export function handshakeCallState(setup: HandshakeSetup) {
  const { callState, streams } = setup;
  const sessions = createSessions(setup.sessions);
  const desk = callState && answerDesk(callState);
  return {
    keeps: callState !== undefined,
    async session(message: {
      req: HttpRequest;
      admitted: Admission;
      ctx: InvocationContext;
      revision: Revision;
    }) {
      const { req, admitted, ctx, revision } = message;
      const named = await namedSession(sessions, req, admitted, ctx);
      if ('refusal' in named) return named;
      if (!named.session) return { revision };
      const headerVersion = req.headers['mcp-protocol-version']?.trim();
      return { session: named.session, revision: withSession(revision, named.session, headerVersion) };
    },
    issue: async (initialize: {
      request: JSONRPCRequest;
      response: JSONRPCResponse;
      admitted: Admission;
      ctx: InvocationContext;
    }) =>
      sessionHeader(sessions, initialize.request, initialize.response, initialize.admitted, initialize.ctx),
    answer: (answer: {
      req: HttpRequest;
      message: JSONObject;
      admitted: Admission;
      ctx: InvocationContext;
    }) => receiveAnswer({ sessions, desk }, answer),
    cancel: (cancellation: {
      params: JSONObject | undefined;
      session: Session;
      admitted: Admission;
      ctx: InvocationContext;
    }) => receiveCancellation(desk, cancellation),
    stream: async (call: {
      callId: RequestId;
      session: Session;
      admitted: Admission;
      ctx: InvocationContext;
    }) => callState && resumableStream(streams, callState, call),
    resume: async (get: { req: HttpRequest; admitted: Admission; ctx: StreamingInvocationContext }) =>
      callState
        ? resumeStream({ sessions, callState, options: streams }, get.req, get.admitted, get.ctx)
        : { response: NO_GET },
  };
}
