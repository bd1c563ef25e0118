import { declares, notDeclared } from './questions.ts';
import { midCallAsker, type MidCallSetup } from './mid-call.ts';
import { AskError, type Asker } from '../contracts/asking.ts';

/**
 * How a handshake-era call asks: mid-call when the client declared what it is asked for at `initialize` (its
 * session says so), the answer is an event stream, and the server has a call state for the answers; otherwise every
 * ask is refused, naming the reason, so the tool can go on without it.
 */
export function handshakeAsker(
  setup: Omit<MidCallSetup, 'live' | 'session' | 'callState'> & Partial<MidCallSetup>,
): Asker {
  const { session, live, callState } = setup;
  if (!session)
    return refusing(
      'The server does not know what this client can be asked: the request carries no session (the Mcp-Session-Id ' +
        'that initialize returns). Ask the user directly in the conversation instead.',
    );
  if (!live || !callState) {
    const refusal = unavailable(
      'This request is answered in one piece (the HTTP API, or a client that does not accept text/event-stream), so ' +
        'the client cannot be asked mid-call. Ask the user directly in the conversation instead.',
    );
    return {
      ask: (request) =>
        Promise.reject(declares(session.capabilities, request) ? refusal : notDeclared(request, false)),
    };
  }
  return midCallAsker({ ...setup, session, live, callState });
}

const unavailable = (message: string) => new AskError('unavailable', message);

/** An asker that refuses every question with the same reason. */
function refusing(message: string): Asker {
  const refusal = unavailable(message);
  return { ask: () => Promise.reject(refusal) };
}
