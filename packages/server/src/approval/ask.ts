import { AskError, type ElicitRequest } from '../contracts/asking.ts';
import { inputRequired, type InputRequired } from '../input/input-required.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { JSONObject } from '../protocol/types.ts';
import type { ToolContext } from '../contracts/tool-context.ts';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../contracts/view.ts';
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

/**
 * What the person answered: approved only on an accepted form saying yes; dismissed when they closed the question
 * without choosing (elicitation's `cancel`), which is not a refusal and reads differently; declined otherwise.
 */
export type ApprovalAnswer = 'approved' | 'declined' | 'dismissed';

const approvedBy = (action: unknown, content: unknown): ApprovalAnswer =>
  action === 'accept' && isJsonObject(content) && content.approve === true
    ? 'approved'
    : action === 'cancel'
      ? 'dismissed'
      : 'declined';

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
 * Asks the person mid-call (the handshake era) and waits for the answer. `unavailable` when the client could be
 * asked but not on this request (the buffered API, a client that does not accept a stream, no session);
 * `not-declared` when it cannot be asked at all. Other failures (no answer in time, a cancelled call) propagate
 * with their own words.
 */
export async function askNow(
  ctx: Pick<ToolContext, 'elicit'>,
  description: string,
): Promise<ApprovalAnswer | 'unavailable' | 'not-declared'> {
  try {
    const answer = await ctx.elicit(question(description));
    return approvedBy(answer.action, answer.content);
  } catch (error) {
    if (error instanceof AskError && (error.reason === 'unavailable' || error.reason === 'not-declared'))
      return error.reason;
    throw error;
  }
}

/** The person's answer in a retried call, if this is one: approved only on an accepted form saying yes. */
export function approvalAnswer(ctx: Pick<ToolContext, 'inputResponses'>): ApprovalAnswer | undefined {
  const response = ctx.inputResponses?.[APPROVAL_INPUT_KEY];
  return response === undefined ? undefined : approvedBy(response.action, response.content);
}
