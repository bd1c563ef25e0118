import { clientText } from '../protocol/client-text.ts';
import { InvalidParamsError } from '../protocol/errors.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { PromptDefinition } from '../prompts/define.ts';
import type { ResourceProvider } from '../resources/provider.ts';
import type { MethodTable } from './method.ts';
import { findPrompt } from './prompts.ts';

/** Where completions come from. */
export interface CompletionMethodsOptions {
  prompts: readonly PromptDefinition[];
  resources: readonly ResourceProvider[];
}

/** Spec (utilities/completion): at most 100 values per response; `total` and `hasMore` tell the rest. */
const MAX_VALUES = 100;

/** `completion/complete` for prompt arguments and resource template variables. */
export function completionMethods(options: CompletionMethodsOptions): MethodTable {
  const { prompts, resources } = options;
  const suggestions = async (
    ref: Record<string, unknown>,
    name: string,
    value: string,
  ): Promise<string[]> => {
    if (ref.type === 'ref/prompt') {
      const prompt = findPrompt(prompts, ref.name);
      return prompt.complete ? prompt.complete(name, value) : [];
    }
    if (ref.type === 'ref/resource') {
      const uri = ref.uri;
      if (typeof uri !== 'string') throw new InvalidParamsError('ref.uri must be a string');
      const provider = resources.find((p) => p.templates?.().some((t) => t.uriTemplate === uri));
      if (!provider)
        throw new InvalidParamsError(`unknown resource template ${clientText(uri)}`, {
          uri: clientText(uri),
        });
      return (await provider.complete?.(uri, name, value)) ?? [];
    }
    throw new InvalidParamsError('ref.type must be ref/prompt or ref/resource');
  };
  return {
    'completion/complete': {
      handler: async (params) => {
        const ref = isJsonObject(params.ref) ? params.ref : {};
        const argument = isJsonObject(params.argument) ? params.argument : {};
        if (typeof argument.name !== 'string' || typeof argument.value !== 'string')
          throw new InvalidParamsError('argument.name and argument.value must be strings');
        const all = await suggestions(ref, argument.name, argument.value);
        const values = all.slice(0, MAX_VALUES);
        return { completion: { values, total: all.length, hasMore: all.length > values.length } };
      },
    },
  };
}
