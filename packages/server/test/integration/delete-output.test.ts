import { describe, expect, it } from 'vitest';
import { defineTool, defineView } from '../../src/index.ts';
import {
  createMcpServer,
  createOffloader,
  silentLogger,
  storedOutputPages,
  storedOutputs,
  type McpServer,
} from '../../src/faces/lambda.ts';
import { memoryStorage } from '../../src/faces/backend.ts';
import { APPROVAL_META_KEY } from '../../src/approval/define.ts';
import { removeStoredOutput } from '../../src/outputs/remove.ts';
import { deleteOutputTool } from '../../src/outputs/delete-tool.ts';
import { DEFAULT_TOOL_TIMEOUT_MS, Ranges } from '../../src/limits.ts';
import { callersByName, send } from '@mcp-lambda/dev/testing';

/**
 * delete_output: a built-in, gated tool. The proposal names what is stored (looked up through the reader); once
 * approved, every object of the output is deleted, and its links stop working.
 */

const approvalView = defineView({
  uri: 'ui://fixture/approval',
  name: 'approval',
  html: () => '<!doctype html>',
});
const big = defineTool({
  name: 'big',
  description: 'Returns the text it is given, repeated.',
  inputSchema: {
    type: 'object',
    properties: { text: { type: 'string' }, times: { type: 'integer' }, mimeType: { type: 'string' } },
    required: ['text', 'times'],
  } as const,
  handler: ({ text, times, mimeType }) =>
    mimeType
      ? { type: 'image', data: Buffer.from(text.repeat(times)).toString('base64'), mimeType }
      : text.repeat(times),
});

function fixture(limits?: { partBudgetBytes?: number }, auth?: typeof callersByName) {
  const storage = memoryStorage();
  const server = createMcpServer({
    info: { name: 'delete-fixture', version: '1' },
    tools: [big],
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({
      storage,
      prefix: 'outputs/',
      thresholdBytes: 4096,
      ttlDays: 1,
      ...(limits ? { limits } : {}),
    }),
    outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
    deleteOutputTool: { view: approvalView },
    ...(auth ? { auth } : {}),
  });
  return { server, storage };
}

let id = 0;
const rpc = async (server: McpServer, method: string, params: Record<string, unknown>) =>
  (await send(server, { body: { jsonrpc: '2.0', id: ++id, method, params } })).json;
const call = async (server: McpServer, name: string, args: Record<string, unknown>) =>
  (await rpc(server, 'tools/call', { name, arguments: args })).result;
const text = (result: any) => result.content.map((b: any) => b.text ?? '').join('\n');
const linkOf = (result: any) => result.content.find((b: any) => b.type === 'resource_link').uri as string;

async function approve(server: McpServer, uri: string) {
  const proposal = (await call(server, 'delete_output', { uri }))._meta[APPROVAL_META_KEY];
  return call(server, 'delete_output_approved', {
    arguments: proposal.arguments,
    proof: proposal.proof,
    decision: 'approve',
  });
}

describe('delete_output', () => {
  it('is listed destructive, with its app-only executor', async () => {
    const { server } = fixture();
    const tools = (await rpc(server, 'tools/list', {})).result.tools;
    expect(tools.find((t: any) => t.name === 'delete_output')).toMatchObject({
      annotations: { destructiveHint: true, readOnlyHint: false },
      _meta: { ui: { resourceUri: 'ui://fixture/approval' } },
    });
    expect(tools.find((t: any) => t.name === 'delete_output_approved')._meta.ui.visibility).toEqual(['app']);
  });

  it('gives the person as long as the invocation may run, not the default budget of seconds', () => {
    const { offloader, pager } = { offloader: {} as never, pager: {} as never };
    const tool = deleteOutputTool({ offloader, pager });
    // The budget is capped by the invocation's remaining time (28 s on the HTTP API, up to 15 minutes streaming).
    expect(tool.timeoutMs).toBe(Ranges.toolTimeoutMs.max);
    expect(tool.timeoutMs).toBeGreaterThan(DEFAULT_TOOL_TIMEOUT_MS * 30);
  });

  it('proposes with what is stored, deletes only once approved, and the links stop working', async () => {
    const { server, storage } = fixture();
    const uri = linkOf(await call(server, 'big', { text: 'row,of,text\n', times: 1000 }));
    const proposed = await call(server, 'delete_output', { uri });
    expect(proposed._meta[APPROVAL_META_KEY].description).toMatch(
      new RegExp(`^Delete the stored output "${uri}" \\(text/plain, 12,000 bytes, kept until .*\\) now`),
    );
    expect(storage.objects.size).toBe(1);
    const done = await approve(server, uri);
    expect(text(done)).toMatch(/^Deleted the stored output/);
    expect(storage.objects.size).toBe(0);
    expect(text(await call(server, 'read_output', { uri }))).toMatch(/^No stored output was found/);
    expect((await rpc(server, 'resources/read', { uri })).error.code).toBe(-32002);
  });

  it('deletes every part of an output stored in parts, from any part URI', async () => {
    const { server, storage } = fixture({ partBudgetBytes: 4096 });
    const result = await call(server, 'big', { text: 'abcdefgh\n', times: 3000 });
    const links = result.content.filter((b: any) => b.type === 'resource_link');
    expect(links.length).toBeGreaterThan(3);
    expect(storage.objects.size).toBe(links.length);
    await approve(server, links[2].uri);
    expect(storage.objects.size).toBe(0);
  });

  it('describes a binary output as such', async () => {
    const { server } = fixture();
    const uri = linkOf(await call(server, 'big', { text: 'x', times: 9000, mimeType: 'image/png' }));
    const proposed = await call(server, 'delete_output', { uri });
    expect(proposed._meta[APPROVAL_META_KEY].description).toMatch(/\(binary\)/);
  });

  it.each([
    ['a never-issued URI', 'mcp-output://outputs/0123456789abcdef0123456789abcdef'],
    ['another scheme', 'file:///etc/passwd'],
    ['a path outside the prefix', 'mcp-output://outputs/../secrets/0123456789abcdef0123456789abcdef'],
  ])('%s: refused at once, nothing to delete', async (_label, uri) => {
    const { server } = fixture();
    const result = await call(server, 'delete_output', { uri });
    expect(result.isError).toBe(true);
    expect(text(result)).toMatch(/so there is nothing to delete/);
  });

  it("another caller's output: nothing to delete for them, and it stays", async () => {
    const { server, storage } = fixture(undefined, callersByName);
    const as = async (who: string, name: string, args: Record<string, unknown>) =>
      (
        await send(server, {
          headers: { authorization: `Bearer ${who}` },
          body: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } },
        })
      ).json.result;
    const uri = linkOf(await as('alice', 'big', { text: 'mine\n', times: 2000 }));
    const refused = await as('mallory', 'delete_output', { uri });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/belong to another caller\), so there is nothing to delete/);
    expect(storage.objects.size).toBe(1);
    const proposal = (await as('alice', 'delete_output', { uri }))._meta[APPROVAL_META_KEY];
    const approve = { arguments: proposal.arguments, proof: proposal.proof, decision: 'approve' };
    expect((await as('mallory', 'delete_output_approved', approve)).isError).toBe(true);
    expect(storage.objects.size).toBe(1);
    expect(text(await as('alice', 'delete_output_approved', approve))).toMatch(/^Deleted the stored output/);
    expect(storage.objects.size).toBe(0);
  });

  it('an output deleted after the proposal: the approval says it is gone', async () => {
    const { server } = fixture();
    const uri = linkOf(await call(server, 'big', { text: 'gone\n', times: 2000 }));
    const proposal = (await call(server, 'delete_output', { uri }))._meta[APPROVAL_META_KEY];
    await approve(server, uri);
    const late = await call(server, 'delete_output_approved', {
      arguments: proposal.arguments,
      proof: proposal.proof,
      decision: 'approve',
    });
    expect(late.isError).toBe(true);
    expect(text(late)).toMatch(/nothing to delete/);
  });
});

describe('removing a stored output', () => {
  it("touches only the caller's own key space", async () => {
    const storage = memoryStorage();
    const offloader = createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 16, ttlDays: 1 });
    const ctx = { tool: 't', requestId: 'r', log: silentLogger };
    const link = await offloader.store(
      { data: 'owned by a '.repeat(10), mimeType: 'text/plain' },
      { ...ctx, principal: 'a' },
    );
    expect(await removeStoredOutput(storage, 'outputs/', link.uri, { principal: 'b' })).toBe(true);
    expect(storage.objects.size).toBe(1);
    expect(await offloader.remove(link.uri, { principal: 'a' })).toBe(true);
    expect(storage.objects.size).toBe(0);
  });

  it('refuses what is not a stored output URI of this prefix', async () => {
    const storage = memoryStorage();
    expect(
      await removeStoredOutput(
        storage,
        'outputs/',
        'mcp-output://other/0123456789abcdef0123456789abcdef',
        {},
      ),
    ).toBe(false);
  });
});
