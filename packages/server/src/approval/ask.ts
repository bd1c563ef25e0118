import { inputRequired, type InputRequired } from '../input/input-required.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { ToolContext } from '../tools/context.ts';
import { UI_EXTENSION, VIEW_MIME_TYPE } from '../views/define.ts';
import { APPROVAL_INPUT_KEY } from './define.ts';

/**
 * How the person is asked, in one place: through the approval view, through elicitation, or not at all. Asking by
 * elicitation is `askPerson` and `approvalAnswer` alone, so it can move to mid-call elicitation when the server has
 * it, without touching the gate.
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

/** Asks the person to approve (an elicitation form with one yes/no field), carrying `state` to the answer. */
export function askPerson(description: string, state: { id: string; expiresAt: number }): InputRequired {
  return inputRequired(
    {
      [APPROVAL_INPUT_KEY]: {
        method: 'elicitation/create',
        params: {
          message: `Approve this? ${description}`,
          requestedSchema: {
            type: 'object',
            properties: {
              approve: {
                type: 'boolean',
                title: 'Approve',
                description: 'Yes to do it now; no to do nothing.',
              },
            },
            required: ['approve'],
          },
        },
      },
    },
    { approval: state },
  );
}

/** The person's answer in a retried call, if this is one: approved only on an accepted form saying yes. */
export function approvalAnswer(
  ctx: Pick<ToolContext, 'inputResponses'>,
): 'approved' | 'declined' | undefined {
  const response = ctx.inputResponses?.[APPROVAL_INPUT_KEY];
  if (response === undefined) return undefined;
  const content = response.content;
  return response.action === 'accept' && isJsonObject(content) && content.approve === true
    ? 'approved'
    : 'declined';
}
