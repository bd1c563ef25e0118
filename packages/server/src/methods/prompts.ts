import type { InputTarget } from '../codec/codec.ts';
import { InputRequired } from '../input/input-required.ts';
import { clientText } from '../protocol/client-text.ts';
import { listFingerprint, paginate } from '../protocol/cursor.ts';
import { InvalidParamsError } from '../protocol/errors.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { GetPromptResult, JSONObject } from '../protocol/types.ts';
import type { PromptDefinition } from '../prompts/define.ts';
import { callerKey, type MethodTable } from './method.ts';

/** What the prompt methods work with. */
export interface PromptMethodsOptions {
  prompts: readonly PromptDefinition[];
  pageSize: number;
}

/** The prompt of that name, or -32602 naming it. */
export function findPrompt(prompts: readonly PromptDefinition[], name: unknown): PromptDefinition {
  const prompt = prompts.find((p) => p.name === name);
  if (!prompt) throw new InvalidParamsError(`unknown prompt ${clientText(name)}`, { name: clientText(name) });
  return prompt;
}

/** `prompts/list` and `prompts/get`. */
export function promptMethods(options: PromptMethodsOptions): MethodTable {
  const { prompts, pageSize } = options;
  const listed = prompts.map(({ handler: _h, complete: _c, ...p }) => p);
  const fingerprint = listFingerprint(prompts.map((p) => p.name));
  return {
    'prompts/list': {
      handler: async (params) => {
        const { page, nextCursor } = paginate(listed, params.cursor, pageSize, 'prompts', fingerprint);
        return { prompts: page, ...(nextCursor ? { nextCursor } : {}) };
      },
    },
    'prompts/get': {
      handler: async (params, ctx) => {
        const prompt = findPrompt(prompts, params.name);
        const args = isJsonObject(params.arguments) ? (params.arguments as Record<string, string>) : {};
        const missing = (prompt.arguments ?? []).filter(
          (a) => a.required && typeof args[a.name] !== 'string',
        );
        if (missing.length)
          throw new InvalidParamsError(
            `missing required argument(s): ${missing.map((a) => a.name).join(', ')}`,
          );
        const target: InputTarget = {
          kind: 'prompt',
          method: 'prompts/get',
          name: prompt.name,
          arguments: params.arguments ?? {},
          ...callerKey(ctx),
        };
        const { revision } = ctx.codec;
        const out = await prompt.handler(args, {
          requestId: ctx.requestId,
          era: revision.era,
          log: ctx.log,
          ...(await ctx.codec.input(params, target, ctx)),
        });
        if (out instanceof InputRequired) return ctx.codec.askForInput(out, target, ctx);
        const result: GetPromptResult =
          typeof out === 'string'
            ? { messages: [{ role: 'user', content: { type: 'text', text: out } }] }
            : out;
        return {
          ...(prompt.description ? { description: prompt.description } : {}),
          ...result,
        } as unknown as JSONObject;
      },
    },
  };
}
