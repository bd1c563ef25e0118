import type { InputRequired, InputResponses } from '../input/input-required.ts';
import type { Logger } from '../log.ts';
import type { GetPromptResult, Icon, JSONObject, JSONValue, PromptArgument } from '../protocol/types.ts';
import type { Era } from '../protocol/versions.ts';

/** What a prompt handler receives besides its arguments. */
export interface PromptContext {
  requestId: string;
  era: Era;
  log: Logger;
  /** Capabilities the client declared on this request (2026-07-28 `_meta`; empty in the handshake era). */
  clientCapabilities: JSONObject;
  /** The client's answers to the previous round's input requests, by key (2026-07-28); empty in round one. */
  inputResponses: InputResponses;
  /** The state handed to `inputRequired` in the previous round, verified; undefined in round one. */
  requestState: JSONValue | undefined;
}

/** A prompt template (spec: server/prompts). */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JSONObject;
  /** Builds the messages; a string becomes one user text message; `inputRequired(...)` asks the client first. */
  handler: (
    args: Record<string, string>,
    ctx: PromptContext,
  ) => string | GetPromptResult | InputRequired | Promise<string | GetPromptResult | InputRequired>;
  /** Suggestions for an argument's value (`completion/complete`). */
  complete?: (argument: string, value: string) => string[] | Promise<string[]>;
}

/** Defines a prompt. */
export function definePrompt(definition: PromptDefinition): PromptDefinition {
  return definition;
}
