import type { CallToolResult } from '@mcp-lambda/server/protocol';
import { APPROVAL_META_KEY, connectView, type Proposal, type ViewConnection } from '@mcp-lambda/server/view';
import { h, localTimes, resultText, setStatus } from '../common/dom.ts';
import './style.css';

/**
 * The approval view: shows what a gated tool will do (the server's own description, not the model's words) with
 * Approve and Reject. A click sends the proposal's proof to the app-only executing tool, once; the outcome is shown
 * and given to the model as context for its next turn. The proof is in the result's `_meta`, which hosts keep from
 * the model, so only this view, after the click, can act on it.
 */

const heading = h('h1', {}, 'Approval needed');
const what = h('p', { class: 'what' });
const details = h('details', {}, h('summary', {}, 'Arguments'), h('pre', { class: 'args' }));
const deadline = h('p', { class: 'deadline' });
const approve = h('button', { class: 'approve', disabled: true }, 'Approve');
const reject = h('button', { class: 'reject', disabled: true }, 'Reject');
const status = h(
  'p',
  { class: 'status', role: 'status', 'aria-live': 'polite' },
  'Waiting for the proposal…',
);
document.body.append(
  heading,
  what,
  details,
  deadline,
  h('div', { class: 'actions' }, approve, reject),
  status,
);

let host: ViewConnection | undefined;
let early: CallToolResult | undefined;
let timer: ReturnType<typeof setInterval> | undefined;

function isProposal(value: unknown): value is Proposal {
  const p = value as Proposal;
  return (
    typeof p === 'object' &&
    p !== null &&
    typeof p.tool === 'string' &&
    typeof p.description === 'string' &&
    typeof p.proof === 'string' &&
    typeof p.approveWith === 'string' &&
    typeof p.expiresAt === 'string' &&
    typeof p.arguments === 'object' &&
    p.arguments !== null
  );
}

/** Sends the decision once; the buttons stay disabled whatever the answer (a new approval needs a new call). */
async function decide(
  view: ViewConnection,
  proposal: Proposal,
  decision: 'approve' | 'reject',
): Promise<void> {
  approve.disabled = reject.disabled = true;
  clearInterval(timer);
  deadline.textContent = '';
  setStatus(status, decision === 'approve' ? 'Approving…' : 'Rejecting…');
  let outcome: string;
  try {
    const result = await view.callTool(proposal.approveWith, {
      arguments: proposal.arguments,
      proof: proposal.proof,
      decision,
    });
    outcome = resultText(result) || (result.isError ? 'It failed without saying why.' : 'Done.');
    // The person reads times as the output viewer shows them, local; the model gets the server's own words.
    setStatus(status, localTimes(outcome), result.isError ? 'error' : 'info');
  } catch (error) {
    // The call may have reached the server and acted, its answer lost on the way back: never say it was not sent,
    // or the action may be proposed, approved and done twice.
    outcome =
      `No outcome came back (${(error as Error).message}), so it may have been done: ` +
      'check before proposing it again.';
    setStatus(status, outcome, 'error');
  }
  heading.textContent = decision === 'approve' ? 'Approved' : 'Rejected';
  const said = decision === 'approve' ? 'approved' : 'rejected';
  // The model learns the outcome on its next turn; a host without this method simply does not pass it on.
  await view
    .updateModelContext({
      content: [{ type: 'text', text: `The person ${said} ${proposal.tool}: ${outcome}` }],
    })
    .catch(() => undefined);
}

/** Counts down to the proof's expiry (by this computer's clock); at zero the buttons go. */
function countDown(expiresAt: number): void {
  clearInterval(timer);
  const tick = () => {
    const left = Math.max(0, Math.round((expiresAt - Date.now()) / 1000));
    deadline.textContent =
      left > 0 ? `Decide within ${Math.floor(left / 60)}:${String(left % 60).padStart(2, '0')}.` : '';
    if (left === 0) {
      approve.disabled = reject.disabled = true;
      clearInterval(timer);
      setStatus(status, 'This approval expired; nothing was done. Ask for it again.', 'error');
    }
  };
  tick();
  timer = setInterval(tick, 1000);
}

function show(result: CallToolResult): void {
  if (!host) return void (early = result);
  const view = host;
  const proposal = result._meta?.[APPROVAL_META_KEY];
  if (result.isError || !isProposal(proposal)) {
    heading.textContent = result.isError ? 'Not proposed' : 'Result';
    return setStatus(status, resultText(result) || 'Nothing to approve.', result.isError ? 'error' : 'info');
  }
  what.textContent = localTimes(proposal.description);
  (details.querySelector('pre') as HTMLElement).textContent = JSON.stringify(proposal.arguments, null, 2);
  approve.onclick = () => void decide(view, proposal, 'approve');
  reject.onclick = () => void decide(view, proposal, 'reject');
  approve.disabled = reject.disabled = false;
  setStatus(status, 'Nothing happens until you approve.');
  // A proposal is data from the wire: an older server may not send the time left, so the expiry is the fallback.
  const left: unknown = proposal.expiresInMs;
  countDown(
    typeof left === 'number' && Number.isFinite(left) ? Date.now() + left : Date.parse(proposal.expiresAt),
  );
}

connectView({
  name: 'approval',
  version: '1.0.0',
  onToolResult: show,
  onToolCancelled: (reason) =>
    setStatus(status, `The call was cancelled${reason ? `: ${reason}` : ''}.`, 'error'),
})
  .then((connection) => {
    host = connection;
    if (early) show(early);
  })
  .catch((error: Error) => setStatus(status, `The host did not connect: ${error.message}`, 'error'));
