import type { InputRequest, InputRequired } from '../input/input-required.ts';
import type { McpError } from '../protocol/errors.ts';
import type { JSONObject } from '../protocol/types.ts';
import { ToolError } from './tool-error.ts';

/**
 * Asking the client from inside a tool: `await ctx.elicit(...)`, `ctx.sample(...)`, `ctx.roots()`. One linear call
 * in every era; the codec of the request's revision decides how the question travels (docs/asking.md).
 */

/** One field of a form (2025-11-25 `PrimitiveSchemaDefinition`): string, number, integer, boolean, or an enum. */
export type FormField = JSONObject & {
  type: 'string' | 'number' | 'integer' | 'boolean' | 'array';
  title?: string;
  description?: string;
};

/** A flat form: an object of primitive fields (schema: `ElicitRequestFormParams.requestedSchema`). */
export interface FormSchema {
  type: 'object';
  properties: Record<string, FormField>;
  required?: string[];
}

/** A question for the person, shown as a form by the client (`elicitation/create`, form mode). */
export interface ElicitRequest {
  /** What the person is asked, in plain words. */
  message: string;
  requestedSchema: FormSchema;
}

/** The values of an accepted form, by field name. */
export type FormContent = Record<string, string | number | boolean | string[]>;

/**
 * The person's answer: `accept` with the form's `content` (checked against the schema before the tool sees it),
 * `decline` (they said no) or `cancel` (they dismissed the question).
 */
export interface ElicitResult {
  action: 'accept' | 'decline' | 'cancel';
  content?: FormContent;
}

/** An LLM completion request (`sampling/createMessage` params): `messages` and `maxTokens` at least. */
export type SampleRequest = JSONObject & { messages: JSONObject[]; maxTokens: number };

/** The client's completion (schema: `CreateMessageResult`). */
export type SampleResult = JSONObject & { role: string; content: JSONObject | JSONObject[]; model: string };

/** One root the client exposes (schema: `Root`). */
export interface Root {
  uri: string;
  name?: string;
}

/**
 * Why an ask failed:
 * - `unavailable`: this client cannot be asked here (the buffered HTTP API in the handshake era, a request without
 *   a session, a task's run); catch it to go on without asking.
 * - `not-declared`: the client did not declare the capability (`elicitation`, `sampling`, `roots`).
 * - `timeout`: no answer within the tool's time budget.
 * - `rejected`: the client answered with an error, or with an answer that does not fit the question.
 * - `cancelled`: the client cancelled the call (`notifications/cancelled`) while it waited for the answer, or before
 *   it asked.
 */
export type AskFailure = 'unavailable' | 'not-declared' | 'timeout' | 'rejected' | 'cancelled';

/**
 * The one error an ask rejects with. It is a ToolError: uncaught, the call ends with `isError` and this message,
 * written for the model. In 2026-07-28 an uncaught `not-declared` is the revision's -32021 instead.
 */
export class AskError extends ToolError {
  constructor(
    readonly reason: AskFailure,
    message: string,
    /** The protocol error this refusal is when the tool lets it propagate (2026-07-28 `not-declared`). */
    readonly protocolError?: McpError,
  ) {
    super(message);
    this.name = 'AskError';
  }
}

/** What an ask knows of the call it belongs to. */
export interface AskCall {
  /** The tool's signal: fires when its budget ends or the call is cancelled. */
  signal: AbortSignal;
  /** Milliseconds left of the tool's budget. */
  remainingMs(): number;
}

/** How the questions of one call travel (chosen by the request's codec). */
export interface Asker {
  /** Sends one question and settles with the client's result object, or rejects with an AskError. */
  ask(request: InputRequest, call: AskCall): Promise<JSONObject>;
  /**
   * Settles when the call must end so its question can travel (2026-07-28: as an InputRequiredResult, the handler
   * running again with the answer); the pending ask then never settles.
   */
  readonly interrupted?: Promise<InputRequired>;
}
