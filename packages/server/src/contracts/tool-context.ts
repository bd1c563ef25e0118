import type { Principal } from './principal.ts';
import type { ElicitRequest, ElicitResult, Root, SampleRequest, SampleResult } from './asking.ts';
import type { Logger } from '../log.ts';
import type { InputContext } from '../input/input-required.ts';
import type { LoggingLevel, ResourceLink } from '../protocol/types.ts';
import type { Era } from '../protocol/versions.ts';

/** A payload a tool asks to store explicitly and receive a `resource_link` for. */
export interface StoreRequest {
  /** The bytes or text to store. */
  data: string | Uint8Array;
  mimeType: string;
  /** Short name shown to the model; defaults to the tool name. */
  name?: string;
  title?: string;
  description?: string;
}

/** What a tool handler receives besides its arguments. */
export interface ToolContext extends Partial<InputContext> {
  /** Id of this invocation (the Lambda request id, or the local server's), for logs and support. */
  requestId: string;
  /**
   * Fires when the call's time budget runs out or the call is cancelled (its task, or the client went away): stop
   * work and return. Pass it to every call that accepts one.
   */
  signal: AbortSignal;
  /**
   * Call `await ctx.checkpoint()` inside any loop that computes for more than a few ms: it lets timers and other
   * work run (yielding at most every few ms, so it is cheap), and throws once the time budget is spent (or the call
   * was cancelled), which ends the tool with an `isError` saying so. Let that error propagate. Without it a busy
   * loop cannot be stopped, and its late result is discarded anyway.
   */
  checkpoint(): Promise<void>;
  era: Era;
  protocolVersion: string;
  /** The authenticated caller (subject, scopes, client), when authorization is enabled (`MCP_AUTH_MODE=oauth`). */
  principal?: Principal;
  log: Logger;
  /** Reports progress to the client (delivered when the client asked for progress and accepts SSE). */
  progress(progress: number, total?: number, message?: string): void;
  /** Sends a log message to the client (delivered when the server advertises logging and the client accepts SSE). */
  notify(level: LoggingLevel, data: unknown): void;
  /**
   * Ends the call's event stream now while the call goes on (SEP-1699, docs/streaming.md): the client resumes it
   * with `GET` and `Last-Event-ID` on any instance and receives the rest, the result included, from the log. For a
   * long call whose client or proxy may not hold a connection that long. Whether it was cut: only resumable streams
   * can be (handshake era with a session, behind the streaming API); elsewhere nothing happens.
   */
  closeStream(): boolean;
  /** Stores a payload and returns a link to it (needs offload storage to be configured). */
  store(request: StoreRequest): Promise<ResourceLink>;
  /**
   * Asks the person a question through the client and waits for the answer (docs/asking.md): mid-call in the
   * handshake era behind the streaming API; in 2026-07-28 the call ends with the question and runs again from the
   * top with the answer, so do side effects after the last ask. Settles with the person's `accept` (the form's
   * content, checked against the schema), `decline` or `cancel`; rejects with an `AskError` where the client
   * cannot be asked (`reason` says why: catch it to go on without asking).
   */
  elicit(request: ElicitRequest): Promise<ElicitResult>;
  /** Asks the client for an LLM completion (`sampling/createMessage`), as `elicit` asks. */
  sample(request: SampleRequest): Promise<SampleResult>;
  /** Asks the client for its roots (`roots/list`), as `elicit` asks. */
  roots(): Promise<Root[]>;
  // clientCapabilities, inputResponses and requestState (InputContext): the server always sets them; they are
  // optional only so that code building a context by hand (tests, benchmarks) need not.
}
