import { AskError } from '../contracts/asking.ts';
import { nodeCrypto } from '../crypto.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { CallToolResult, JSONObject } from '../protocol/types.ts';
import type { ToolContext } from '../contracts/tool-context.ts';
import type { ToolDefinition } from '../tools/define.ts';
import { ToolError } from '../contracts/tool-error.ts';
import { approvalAnswer, approvalPath, askNow, askPerson, type ApprovalAnswer } from './ask.ts';
import {
  APPROVAL_META_KEY,
  approvedToolName,
  DEFAULT_APPROVAL_TTL_MS,
  type ApprovalOptions,
  type Proposal,
} from './define.ts';
import type { ApprovalSpec } from '../contracts/approval.ts';
import { dynamoApprovalLedger } from './dynamodb-ledger.ts';
import { memoryApprovalLedger, type ApprovalLedger } from './ledger.ts';
import { createProofCodec, type ProofBinding, type ProofCodec } from './proof.ts';
import type { SessionKeySource } from '../sessions/session-keys.ts';

/**
 * The approval gate's checks, loaded on the first gated call: a gated tool's call proposes (or asks, or refuses), and
 * its app-only executing tool runs the handler only for a proof this server issued for this caller, tool and
 * arguments, before it expires, once. Every refusal says why and that nothing was done.
 */

/** What the server gives the gate: the user's options, and the session keys that sign proofs without a secret. */
export interface GateOptions extends ApprovalOptions {
  sessionKeys?: SessionKeySource;
}

interface Gate {
  proofs: ProofCodec;
  ledger: ApprovalLedger;
  warned: boolean;
}

/** The ledger the options name: the given one, else the DynamoDB table, else this process's memory. */
const ledgerOf = (options: GateOptions): ApprovalLedger =>
  options.ledger ?? (options.dynamodb ? dynamoApprovalLedger(options.dynamodb) : memoryApprovalLedger());

/** One gate per server (its options object): the key is derived and the ledger made on first use. */
const gates = new WeakMap<GateOptions, Gate>();
const gateOf = (options: GateOptions): Gate => {
  let gate = gates.get(options);
  if (!gate) {
    const { secret, sessionKeys } = options;
    gate = {
      proofs: createProofCodec({
        ...(secret !== undefined ? { secret } : {}),
        ...(sessionKeys !== undefined ? { sessionKeys } : {}),
      }),
      ledger: ledgerOf(options),
      warned: false,
    };
    gates.set(options, gate);
  }
  return gate;
};

/** A proof serves the client it was proposed to: another client of the same person cannot execute it. */
const binding = (tool: ToolDefinition, args: unknown, ctx: ToolContext): ProofBinding => ({
  tool: tool.name,
  arguments: args,
  ...(ctx.principal !== undefined ? { principal: ctx.principal.clientKey } : {}),
});

/** A proof signed or checked; keys that cannot be read (a secret store that fails) stop the call. */
async function withKeys<T>(work: () => Promise<T>, what: 'signed' | 'checked', ctx: ToolContext): Promise<T> {
  try {
    return await work();
  } catch (error) {
    ctx.log.error('approval proof keys cannot be read', {
      error: error instanceof Error ? error.message : String(error),
    });
    throw new ToolError(
      `The approval could not be ${what} right now (request id ${ctx.requestId}), so nothing was done. ` +
        `Try again shortly.`,
    );
  }
}

/** Records an approval as used; false when it was used before. A ledger that cannot be reached stops the call. */
async function consume(gate: Gate, id: string, expiresAt: number, ctx: ToolContext): Promise<boolean> {
  try {
    return await gate.ledger.consume(id, expiresAt, { signal: ctx.signal });
  } catch (error) {
    ctx.log.error('approval ledger failed', {
      error: error instanceof Error ? error.message : String(error),
    });
    throw new ToolError(
      `The approval could not be recorded right now (request id ${ctx.requestId}), so nothing was done. Try again shortly.`,
    );
  }
}

/** The gated tool's call: the person's answer to an earlier question, or a proposal, a question, a refusal. */
export async function propose(
  tool: ToolDefinition,
  args: JSONObject,
  ctx: ToolContext,
  options: GateOptions,
): Promise<unknown> {
  const spec = tool.approval as ApprovalSpec;
  const gate = gateOf(options);
  const answer = approvalAnswer(ctx);
  if (answer !== undefined) return answered(tool, args, ctx, gate, answer);
  const description = await spec.describe(args, ctx);
  const ttlMs = spec.ttlMs ?? DEFAULT_APPROVAL_TTL_MS;
  const path = approvalPath(ctx, spec.view !== undefined);
  if (path === 'elicit' && !ctx.asksInRounds) return askedNow(tool, args, ctx, description);
  if (path === 'elicit') {
    const id = nodeCrypto().randomBytes(16).toString('base64url');
    return askPerson(description, { id, expiresAt: Date.now() + ttlMs });
  }
  if (path === 'refuse') throw cannotAsk(description);
  const { proof, expiresAt } = await withKeys(
    () => gate.proofs.issue(binding(tool, args, ctx), ttlMs, ctx.signal),
    'signed',
    ctx,
  );
  if (gate.proofs.ephemeral && !gate.warned) {
    gate.warned = true;
    ctx.log.warn(
      'approval proofs are signed with a key random to this instance; set session keys or the approvals secret',
      { tool: tool.name },
    );
  }
  const until = new Date(expiresAt).toISOString();
  const proposal: Proposal = {
    tool: tool.name,
    description,
    arguments: args,
    expiresAt: until,
    expiresInMs: Math.max(0, expiresAt - Date.now()),
    approveWith: approvedToolName(tool.name),
    proof,
  };
  const result: CallToolResult = {
    content: [
      {
        type: 'text',
        text:
          `Waiting for the person's approval; nothing has been done yet. ${description} They can approve or reject ` +
          `it in the approval view shown with this result until ${until}; the outcome reaches you as context. If ` +
          `no view is shown, this client cannot ask them: tell the person what you wanted to do.`,
      },
    ],
    _meta: { [APPROVAL_META_KEY]: proposal as unknown as JSONObject },
  };
  return result;
}

/** The refusal where the person can be reached neither way. */
const cannotAsk = (description: string) =>
  new ToolError(
    `This needs the person's approval first: ${description} This client can neither show the approval view ` +
      `(MCP Apps) nor ask the person (elicitation) here, so nothing was done. Tell the person what you wanted to ` +
      `do; it needs a client that does either.`,
  );

/**
 * The refusal where the client can be asked (it declared elicitation) but not on this request: the deployment
 * answers in one piece, so no question can go out mid-call. Says what would reach the person.
 */
const cannotAskHere = (description: string) =>
  new ToolError(
    `This needs the person's approval first: ${description} This client can be asked (elicitation), but not ` +
      `mid-call on this deployment: its API answers each request in one piece (the HTTP API, or a request that ` +
      `does not accept a stream), and the client shows no approval view (MCP Apps). Nothing was done. Tell the ` +
      `person what you wanted to do. What would reach them: this server deployed on its streaming API, a client on ` +
      `protocol revision 2026-07-28 (asked between rounds), or a client that shows MCP Apps views.`,
  );

/** What the call answers when the person did not approve: a refusal and a dismissed question read differently. */
const NOT_APPROVED = {
  declined: 'The person did not approve, so nothing was done.',
  dismissed:
    'The person closed the question without answering, so nothing was done. Ask them in the conversation ' +
    'whether they want it before proposing it again.',
} as const;

/** Asked mid-call (the handshake era): a yes runs the handler in this very call, so once. */
async function askedNow(
  tool: ToolDefinition,
  args: JSONObject,
  ctx: ToolContext,
  description: string,
): Promise<unknown> {
  const answer = await askNow(ctx, description);
  if (answer === 'unavailable') throw cannotAskHere(description);
  if (answer === 'not-declared') throw cannotAsk(description);
  if (answer !== 'approved') return NOT_APPROVED[answer];
  ctx.log.info('approved action runs', { tool: tool.name, via: 'elicitation' });
  return tool.handler(args, approvedContext(ctx));
}

/**
 * The context an approved handler runs with. In 2026-07-28 a question would end the approved call and come back as a
 * new round that is no longer approved (each approval acts once), so the person would be asked to approve again and
 * again: the handler's questions are refused at once instead, as the AskError a handler may catch.
 */
function approvedContext(ctx: ToolContext): ToolContext {
  if (!ctx.asksInRounds) return ctx;
  const refuse = () =>
    Promise.reject(
      new AskError(
        'unavailable',
        'A tool gated with approval cannot ask the person after the approval in protocol revision 2026-07-28 ' +
          '(the question would end the approved call); nothing more was asked. What the action needs belongs in ' +
          'its arguments.',
      ),
    );
  return { ...ctx, elicit: refuse, sample: refuse, roots: refuse };
}

/** The retry after an elicitation: acts once on an approval, does nothing on anything else. */
async function answered(
  tool: ToolDefinition,
  args: JSONObject,
  ctx: ToolContext,
  gate: Gate,
  answer: ApprovalAnswer,
): Promise<unknown> {
  const state = isJsonObject(ctx.requestState) ? ctx.requestState.approval : undefined;
  if (!isJsonObject(state) || typeof state.id !== 'string' || typeof state.expiresAt !== 'number')
    throw new ToolError(
      `The answer came without the question it answers; call ${tool.name} again to be asked.`,
    );
  if (state.expiresAt < Date.now())
    throw new ToolError(
      `The question expired before it was answered, so nothing was done; call ${tool.name} again.`,
    );
  if (!(await consume(gate, state.id, state.expiresAt, ctx)))
    throw new ToolError(
      `This question was already answered; each approval acts at most once, so nothing more was done.`,
    );
  if (answer !== 'approved') return NOT_APPROVED[answer];
  ctx.log.info('approved action runs', { tool: tool.name, via: 'elicitation' });
  return tool.handler(args, approvedContext(ctx));
}

/** The app-only executing tool: checks the proof, records it used, then records a rejection or runs the tool. */
export async function execute(
  tool: ToolDefinition,
  input: { arguments: JSONObject; proof: string; decision: 'approve' | 'reject' },
  ctx: ToolContext,
  options: GateOptions,
): Promise<unknown> {
  const gate = gateOf(options);
  const checked = await withKeys(
    () => gate.proofs.check(input.proof, binding(tool, input.arguments, ctx), ctx.signal),
    'checked',
    ctx,
  );
  if (checked === 'invalid') {
    ctx.log.warn('approval proof refused', { tool: tool.name, reason: 'invalid' });
    throw new ToolError(
      `The approval proof does not match this call (it was not issued by this server for ${tool.name} with these ` +
        `arguments and this caller), so nothing was done. Only the approval view can run ${tool.name}, after the ` +
        `person approves; call ${tool.name} to propose it.`,
    );
  }
  if (checked === 'expired')
    throw new ToolError(
      `This approval expired before it was used, so nothing was done; call ${tool.name} again.`,
    );
  if (!(await consume(gate, checked.id, checked.expiresAt, ctx))) {
    ctx.log.warn('approval proof refused', { tool: tool.name, reason: 'used' });
    throw new ToolError(
      `This approval was already used: each approval runs ${tool.name} at most once, so nothing more was done. ` +
        `Call ${tool.name} again to propose it anew.`,
    );
  }
  if (input.decision === 'reject') return `The person rejected it, so nothing was done.`;
  ctx.log.info('approved action runs', { tool: tool.name, via: 'view' });
  return tool.handler(input.arguments, approvedContext(ctx));
}
