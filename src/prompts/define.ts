import type { GetPromptResult, Icon, JSONObject, PromptArgument } from '../protocol/types.ts';

/** A prompt template (spec: server/prompts). */
export interface PromptDefinition {
  name: string;
  title?: string;
  description?: string;
  arguments?: PromptArgument[];
  icons?: Icon[];
  _meta?: JSONObject;
  /** Builds the messages; a string becomes one user text message. */
  handler: (args: Record<string, string>) => string | GetPromptResult | Promise<string | GetPromptResult>;
  /** Suggestions for an argument's value (`completion/complete`). */
  complete?: (argument: string, value: string) => string[] | Promise<string[]>;
}

/** Defines a prompt. */
export function definePrompt(definition: PromptDefinition): PromptDefinition {
  return definition;
}
