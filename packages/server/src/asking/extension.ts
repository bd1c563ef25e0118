/**
 * The asking extension, loaded by `lazy.ts` with `import()` on the first session, question, answer or
 * `requestState`: sessions, the request-state codec, the questions and their checks, the askers of both eras, the
 * answer desk, the call state's stores, and the logs of cut streams and their resumption (about 25 KB that a cold
 * start never loads).
 */

export { askingMethods } from './questions.ts';
export { replayAsker } from './replay.ts';
export { handshakeAsker } from './handshake.ts';
export { answerDesk } from './desk.ts';
export { memoryCallStateStores } from '../call-state/memory.ts';
export { dynamoCallStateStores } from '../call-state/dynamodb.ts';
export { createSessions } from '../sessions/sessions.ts';
export { secretsManagerReader } from '../sessions/secrets-manager.ts';
export { createRequestStateCodec } from '../input/request-state.ts';
export { resumableStream } from '../resume/resumable-stream.ts';
export { resumeStream } from '../resume/resume.ts';
export {
  namedSession,
  receiveAnswer,
  receiveCancellation,
  sessionHeader,
  withSession,
} from '../http/sessions.ts';
