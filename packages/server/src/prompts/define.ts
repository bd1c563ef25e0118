import type { InputContext, InputRequired } from '../input/input-required.ts';
import type { Logger } from '../log.ts';
import type { GetPromptResult, Prompt } from '../protocol/types.ts';
import type { Era } from '../protocol/versions.ts';

/** What a prompt handler receives besides its arguments. */
export interface PromptContext extends InputContext {
  requestId: string;
  era: Era;
  log: Logger;
}

/** A prompt template (spec: server/prompts): the listed `Prompt` and how to build its messages. */
export interface PromptDefinition extends Prompt {
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
