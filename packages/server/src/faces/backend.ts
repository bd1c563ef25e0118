/**
 * `@mcp-lambda/server/backend`: the interfaces a backend of your own implements (storage, the companion invoke, the
 * call state (questions, cancellations, the stream log), the task store and launcher, the approval ledger, session keys, an authenticator,
 * an instrumented SDK client), and the in-memory implementations, the reference ones (one process only). Audience:
 * whoever replaces an AWS implementation (`./aws`) or tests without one. Each group is marked stable or experimental.
 */

// ## Storage (stable)
export {
  StorageError,
  type ObjectAttributes,
  type RangeReader,
  type StorageReader,
  type StorageWriter,
  type StoredObject,
  type StoredRange,
} from '../storage/storage.ts';
export { memoryStorage } from '../storage/memory.ts';

// ## Stored outputs read through the companion: how it is invoked (stable)
export type { InvokeCompanion } from '../outputs/companion/ask.ts';

// ## Authorization: what an authenticator of your own implements (stable)
export type { Authentication, Authenticator, AuthRejection, AuthRequest } from '../auth/authenticator.ts';
export type { ProtectedResourceMetadata } from '../auth/metadata.ts';

// ## Instrumenting the AWS SDK clients the implementations make (stable)
export type { InstrumentClient } from '../outbound.ts';

// ## Asking the client mid-call: session keys and the call state (experimental)
export type { SessionKeySource } from '../sessions/session-keys.ts';
export type {
  Answer,
  CallState,
  CancellationStore,
  LoggedEvent,
  Question,
  QuestionStore,
  Refusal,
  Settled,
  StreamHead,
  StreamLog,
} from '../call-state/stores.ts';
export { memoryCallState } from '../asking/stores.ts';
// Renamed (deprecated): the previous release's names.
export { memoryRendezvous, type EventLog, type RendezvousStore } from '../asking/stores.ts';

// ## Tasks: the store, the launcher and the job it hands the worker (experimental)
export type { TaskStore } from '../tasks/store.ts';
export type { TaskJob, TaskLauncher } from '../tasks/job.ts';
export type { TaskKey, TaskRecord } from '../tasks/types.ts';
export { memoryTaskStore } from '../tasks/memory-store.ts';

// ## Approval: the ledger of used approvals (experimental)
// The interface only: the in-memory ledger is the default, made on the first approval, never at start-up.
export type { ApprovalLedger } from '../approval/ledger.ts';
