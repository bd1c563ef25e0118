/**
 * The asking extension, loaded by `lazy.ts` with `import()` on the first session, question, answer or
 * `requestState`: the request-state codec, the questions and their checks, the askers of both eras, the call
 * state's stores, and the handshake era's call state as the transport uses it (sessions, the answer desk, the logs
 * of cut streams and their resumption): about 25 KB that a cold start never loads.
 */

export { askingMethods } from './questions.ts';
export { replayAsker } from './replay.ts';
export { handshakeAsker } from './handshake.ts';
export { memoryCallStateStores } from '../call-state/memory.ts';
export { dynamoCallStateStores } from '../call-state/dynamodb.ts';
export { secretsManagerReader } from '../sessions/secrets-manager.ts';
export { createRequestStateCodec } from '../input/request-state.ts';
export { handshakeCallState } from './handshake-state.ts';
