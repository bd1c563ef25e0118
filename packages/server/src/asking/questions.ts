import type { InputRequest } from '../input/input-required.ts';
import { MissingCapabilityError } from '../protocol/errors.ts';
import { clientText } from '../protocol/client-text.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { JSONObject } from '../protocol/types.ts';
import { answerProblem, formProblem } from './form.ts';
import {
  AskError,
  type AskCall,
  type Asker,
  type ElicitRequest,
  type ElicitResult,
  type Root,
  type SampleRequest,
  type SampleResult,
} from '../contracts/asking.ts';

/** The client capability each question relies on (schema: `ClientCapabilities`). */
const CAPABILITY: Readonly<Record<InputRequest['method'], string>> = {
  'elicitation/create': 'elicitation',
  'sampling/createMessage': 'sampling',
  'roots/list': 'roots',
};

/** What the person is told the client lacks, per capability. */
const PURPOSE: Readonly<Record<string, string>> = {
  elicitation: 'asking the person a question (elicitation)',
  sampling: 'an LLM completion from the client (sampling)',
  roots: "the client's roots",
};

/**
 * Whether the client declared what a question relies on. A form needs `elicitation` with `form`, or an empty
 * `elicitation` object (2025-11-25: an empty object means form mode, as in 2025-06-18).
 */
export function declares(capabilities: JSONObject, request: InputRequest): boolean {
  const declared = capabilities[CAPABILITY[request.method]];
  if (!isJsonObject(declared)) return false;
  if (request.method !== 'elicitation/create') return true;
  return Object.keys(declared).length === 0 || isJsonObject(declared.form);
}

/** The refusal of a question the client did not declare; `protocol` makes it -32021 when uncaught (2026-07-28). */
export function notDeclared(request: InputRequest, protocol: boolean): AskError {
  const capability = CAPABILITY[request.method];
  return new AskError(
    'not-declared',
    `The client did not declare the "${capability}" capability, so it cannot provide ${PURPOSE[capability]}. ` +
      `Go on without it, or ask the user directly in the conversation.`,
    protocol ? new MissingCapabilityError({ [capability]: {} }) : undefined,
  );
}

/** A client's answer that does not fit its question. */
const unfit = (what: string, problem: string) =>
  new AskError('rejected', `The client's answer to ${what} could not be used: ${problem}.`);

/** Checks the client's result for a question, so the tool sees only results of the documented shapes. */
function checkedResult(request: InputRequest, result: unknown): JSONObject {
  if (!isJsonObject(result)) throw unfit(request.method, 'it is not an object');
  switch (request.method) {
    case 'elicitation/create': {
      const action = result.action;
      if (action !== 'accept' && action !== 'decline' && action !== 'cancel')
        throw unfit('the question', `its action is ${clientText(String(action), 32)}`);
      if (action !== 'accept') return { action };
      const problem = answerProblem(request.params.requestedSchema as JSONObject, result.content);
      if (problem) throw unfit('the question', problem);
      return { action, content: result.content! };
    }
    case 'sampling/createMessage':
      if (
        typeof result.model !== 'string' ||
        !(isJsonObject(result.content) || Array.isArray(result.content))
      )
        throw unfit('the completion request', 'it lacks model or content');
      return result;
    default: {
      const roots = result.roots;
      if (!Array.isArray(roots) || !roots.every((r) => isJsonObject(r) && typeof r.uri === 'string'))
        throw unfit('roots/list', 'it has no list of roots with a uri each');
      return result;
    }
  }
}

/** Thrown where nothing can ask (a task's run, code that built a context by hand). */
const NOWHERE: Asker = {
  ask: () =>
    Promise.reject(
      new AskError(
        'unavailable',
        'This call cannot ask the client anything (it runs detached from a request, e.g. as a task); ask the ' +
          'user directly in the conversation, or ask before the work starts (task.prepare).',
      ),
    ),
};

/** The `elicit`, `sample` and `roots` of a tool's context: each builds its question and checks its answer. */
export function askingMethods(asker: Asker | undefined, call: AskCall) {
  const via = asker ?? NOWHERE;
  return {
    async elicit(request: ElicitRequest): Promise<ElicitResult> {
      const problem =
        typeof request?.message !== 'string'
          ? 'message must be a string'
          : formProblem(request.requestedSchema);
      // The tool's own mistake: a plain error, logged with its stack, never shown to the model as advice.
      if (problem) throw new TypeError(`ctx.elicit: ${problem}`);
      const question: InputRequest = {
        method: 'elicitation/create',
        // No `mode`: form mode is the default, and 2025-06-18 clients do not know the field.
        params: { message: request.message, requestedSchema: request.requestedSchema as never },
      };
      return checkedResult(question, await via.ask(question, call)) as unknown as ElicitResult;
    },
    async sample(request: SampleRequest): Promise<SampleResult> {
      if (!Array.isArray(request?.messages) || typeof request.maxTokens !== 'number')
        throw new TypeError('ctx.sample: messages (a list) and maxTokens (a number) are required');
      const question: InputRequest = { method: 'sampling/createMessage', params: request };
      return checkedResult(question, await via.ask(question, call)) as SampleResult;
    },
    async roots(): Promise<Root[]> {
      const question: InputRequest = { method: 'roots/list' };
      return checkedResult(question, await via.ask(question, call)).roots as unknown as Root[];
    },
  };
}
