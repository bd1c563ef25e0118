import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { defineTool, defineView } from '../../src/index.ts';
import {
  createMcpServer,
  type ApprovalOptions,
  type McpServer,
  type McpServerOptions,
} from '../../src/faces/lambda.ts';
import { APPROVAL_META_KEY } from '../../src/approval/define.ts';
import {
  send,
  LOCAL_DYNAMO_CREDENTIALS,
  losingFirstResponse,
  startLocalDynamo,
  type LocalDynamo,
} from '@mcp-lambda/dev/testing';
import { dynamoApprovalLedger } from '../../src/approval/dynamodb-ledger.ts';

/**
 * The approval gate as deployed: several instances (one server each, as Lambda runs them) behind one endpoint, with
 * the ledger of used approvals in DynamoDB (the local stand-in). A proof is checked by whichever instance the
 * executing call lands on, and each approval acts once across all of them.
 */

let dynamo: LocalDynamo;
beforeAll(async () => {
  dynamo = await startLocalDynamo('approvals-under-test');
});
afterAll(async () => {
  await dynamo?.close();
});

const approvalView = defineView({
  uri: 'ui://fixture/approval',
  name: 'approval',
  html: () => '<!doctype html>',
});

/** A consequential fixture shared by every instance: each transfer it really made is counted. */
function deployment(approvals: () => ApprovalOptions, more: () => Partial<McpServerOptions> = () => ({})) {
  const transfers: number[] = [];
  const transfer = defineTool({
    name: 'transfer',
    description: 'Transfers an amount.',
    inputSchema: {
      type: 'object',
      properties: { amount: { type: 'number' } },
      required: ['amount'],
    } as const,
    approval: { view: approvalView, describe: ({ amount }) => `Transfer ${amount}.` },
    handler: ({ amount }) => {
      transfers.push(amount);
      return `Transferred ${amount}.`;
    },
  });
  /** One more instance of the function: its own memory, the deployment's configuration. */
  const instance = () =>
    createMcpServer({
      info: { name: 'approvals', version: '1' },
      tools: [transfer],
      approvals: approvals(),
      ...more(),
    });
  return { transfers, instance };
}

const tableLedger = () => ({
  secret: 'the deployment secret, sixteen bytes or more',
  dynamodb: { table: dynamo.tableName, endpoint: dynamo.endpoint, credentials: LOCAL_DYNAMO_CREDENTIALS },
});

let id = 0;
const call = async (server: McpServer, name: string, args: Record<string, unknown>) =>
  (
    await send(server, {
      body: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } },
    })
  ).json.result;
const text = (result: any) => result.content.map((b: any) => b.text).join('\n');

async function propose(server: McpServer, amount: number) {
  const proposal = (await call(server, 'transfer', { amount }))._meta[APPROVAL_META_KEY];
  return { arguments: proposal.arguments, proof: proposal.proof, decision: 'approve' };
}

describe('a DynamoDB ledger shared by the instances', () => {
  it('a proof used on one instance is refused on every other', async () => {
    const { transfers, instance } = deployment(tableLedger);
    const [a, b, c] = [instance(), instance(), instance()];
    const approve = await propose(a, 100);
    expect(text(await call(b, 'transfer_approved', approve))).toBe('Transferred 100.');
    for (const other of [a, c]) {
      const replay = await call(other, 'transfer_approved', approve);
      expect(replay.isError).toBe(true);
      expect(text(replay)).toMatch(/already used/);
    }
    expect(transfers).toEqual([100]);
  });

  it('the same proof sent to many instances at once acts exactly once', async () => {
    const { transfers, instance } = deployment(tableLedger);
    const approve = await propose(instance(), 250);
    const results = await Promise.all(
      Array.from({ length: 6 }, () => call(instance(), 'transfer_approved', approve)),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(transfers).toEqual([250]);
  });

  it('a table that cannot be reached stops the call: nothing is done, and it says so', async () => {
    const { transfers, instance } = deployment(() => ({
      secret: 'the deployment secret, sixteen bytes or more',
      dynamodb: {
        table: dynamo.tableName,
        endpoint: 'http://127.0.0.1:9',
        credentials: LOCAL_DYNAMO_CREDENTIALS,
        connectionTimeoutMs: 200,
      },
    }));
    const server = instance();
    const refused = await call(server, 'transfer_approved', await propose(server, 7));
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/could not be recorded right now .* so nothing was done/);
    expect(transfers).toEqual([]);
  });
});

describe('the DynamoDB ledger when a write succeeded and its response was lost (the SDK sends it again)', () => {
  const ledger = (lose?: boolean) =>
    dynamoApprovalLedger({
      table: dynamo.tableName,
      endpoint: dynamo.endpoint,
      credentials: LOCAL_DYNAMO_CREDENTIALS,
      ...(lose ? { instrument: losingFirstResponse('PutItemCommand') } : {}),
    });

  it('the approval recorded on the first attempt counts as this call’s, not as used before', async () => {
    const id = `lost-${Date.now()}`;
    expect(await ledger(true).consume(id, Date.now() + 60_000)).toBe(true);
    // Anyone else with the same approval is still refused.
    expect(await ledger().consume(id, Date.now() + 60_000)).toBe(false);
  });

  it('through the server: the person’s approval acts, once', async () => {
    const { transfers, instance } = deployment(() => ({
      ...tableLedger(),
      ledger: ledger(true),
    }));
    const server = instance();
    const approve = await propose(server, 42);
    expect(text(await call(server, 'transfer_approved', approve))).toBe('Transferred 42.');
    expect((await call(instance(), 'transfer_approved', approve)).isError).toBe(true);
    expect(transfers).toEqual([42]);
  });
});

describe('proof keys as deployed: derived from the session keys, like requestState', () => {
  const KEY_A = 'session-key-A-at-least-thirty-two-characters';
  const KEY_B = 'session-key-B-at-least-thirty-two-characters';
  /** The deployed configuration: the task table as the ledger, no secret of its own, the session keys. */
  const deployed = (keys: () => readonly string[] | ((signal: AbortSignal) => Promise<string>)) =>
    deployment(
      () => ({
        dynamodb: {
          table: dynamo.tableName,
          endpoint: dynamo.endpoint,
          credentials: LOCAL_DYNAMO_CREDENTIALS,
        },
      }),
      () => ({ sessions: { keys: keys() } }),
    );

  it('a proof issued by one instance is accepted by another', async () => {
    const { transfers, instance } = deployed(() => [KEY_A]);
    const approve = await propose(instance(), 5);
    expect(text(await call(instance(), 'transfer_approved', approve))).toBe('Transferred 5.');
    expect(transfers).toEqual([5]);
  });

  it('keys read from the secret store: a proof of the previous key works after a rotation, a removed key fails', async () => {
    let secret = KEY_A;
    const { transfers, instance } = deployed(() => async () => secret);
    const before = await propose(instance(), 1);
    const alsoBefore = await propose(instance(), 2);
    secret = `${KEY_B},${KEY_A}`;
    const after = await propose(instance(), 3);
    expect(after.proof.split('.')[1]).not.toBe(before.proof.split('.')[1]);
    expect(text(await call(instance(), 'transfer_approved', before))).toBe('Transferred 1.');
    secret = KEY_B;
    const removed = await call(instance(), 'transfer_approved', alsoBefore);
    expect(removed.isError).toBe(true);
    expect(text(removed)).toMatch(/does not match this call/);
    expect(text(await call(instance(), 'transfer_approved', after))).toBe('Transferred 3.');
    expect(transfers).toEqual([1, 3]);
  });

  it('a secret store that fails: nothing is proposed or done, and the call says to try again', async () => {
    const { transfers, instance } = deployed(() => async () => {
      throw new Error('AccessDenied: not for the client to see');
    });
    const result = await call(instance(), 'transfer', { amount: 9 });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/could not be signed right now .*nothing was done/);
    expect(text(result)).not.toMatch(/AccessDenied/);
    expect(transfers).toEqual([]);
  });
});
