import { AskError, type ElicitRequest } from '../asking/types.ts';
import { inputRequired, type InputRequired } from '../input/input-required.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { JSONObject } from '../protocol/types.ts';
import type { ToolContext } from '../tools/context.ts';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../views/define.ts';
import { APPROVAL_INPUT_KEY } from './define.ts';

/**
 * How the person is asked, in one place: through the approval view, through elicitation, or not at all. Elicitation
 * goes mid-call in the handshake era (`askNow`, on the streaming API) and as an `inputRequired` round in 2026-07-28
 * (`askPerson` and `approvalAnswer`, whose single use the gate's ledger keeps).
 */

/** How a gated call reaches the person. */
export type ApprovalPath = 'view' | 'elicit' | 'refuse';

/** Whether the client declared it shows MCP Apps views (2026-07-28 declares capabilities on every request). */
function showsViews(capabilities: Record<string, unknown>): boolean {
  const extensions = capabilities.extensions;
  const ui = isJsonObject(extensions) ? extensions[UI_EXTENSION] : undefined;
  return isJsonObject(ui) && Array.isArray(ui.mimeTypes) && ui.mimeTypes.includes(VIEW_MIME_TYPE);
}

/**
 * The view when the client shows views; else elicitation when it can be asked; else, when the request does not
 * say what the client can do (the handshake era does not repeat its capabilities), the view too, with text saying
 * what to do if none is shown; else no way at all.
 */
export function approvalPath(ctx: Pick<ToolContext, 'clientCapabilities'>, hasView: boolean): ApprovalPath {
  const capabilities = ctx.clientCapabilities;
  if (capabilities === undefined) return hasView ? 'view' : 'refuse';
  if (hasView && showsViews(capabilities)) return 'view';
  return isJsonObject(capabilities.elicitation) ? 'elicit' : 'refuse';
}

/** The question: a yes/no form saying what will happen. */
const question = (description: string): ElicitRequest => ({
  message: `Approve this? ${description}`,
  requestedSchema: {
    type: 'object',
    properties: {
      approve: { type: 'boolean', title: 'Approve', description: 'Yes to do it now; no to do nothing.' },
    },
    required: ['approve'],
  },
});

/** Approved only on an accepted form saying yes. */
const approvedBy = (action: unknown, content: unknown): 'approved' | 'declined' =>
  action === 'accept' && isJsonObject(content) && content.approve === true ? 'approved' : 'declined';

/** Asks the person to approve in a 2026-07-28 round, carrying `state` to the answer. */
export function askPerson(description: string, state: { id: string; expiresAt: number }): InputRequired {
  return inputRequired(
    {
      [APPROVAL_INPUT_KEY]: {
        method: 'elicitation/create',
        params: question(description) as unknown as JSONObject,
      },
    },
    { approval: state },
  );
}

/**
 * Asks the person mid-call (the handshake era) and waits for the answer; undefined when this client cannot be asked
 * here (the buffered API, a request without a session). Other failures (no answer in time, a cancelled call)
 * propagate with their own words.
 */
export async function askNow(
  ctx: Pick<ToolContext, 'elicit'>,
  description: string,
): Promise<'approved' | 'declined' | undefined> {
  try {
    const answer = await ctx.elicit(question(description));
    return approvedBy(answer.action, answer.content);
  } catch (error) {
    if (error instanceof AskError && (error.reason === 'unavailable' || error.reason === 'not-declared'))
      return undefined;
    throw error;
  }
}

/** The person's answer in a retried call, if this is one: approved only on an accepted form saying yes. */
export function approvalAnswer(
  ctx: Pick<ToolContext, 'inputResponses'>,
): 'approved' | 'declined' | undefined {
  const response = ctx.inputResponses?.[APPROVAL_INPUT_KEY];
  return response === undefined ? undefined : approvedBy(response.action, response.content);
}
