import { describe, expect, it } from 'vitest';
import { defineTool, defineView, ToolError, type ToolDefinition } from '../../src/index.ts';
import { createMcpServer, type McpServer } from '../../src/faces/lambda.ts';
import { APPROVAL_META_KEY } from '../../src/approval/define.ts';
import { callersByName, BASE_HEADERS, statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';
import { silentLogger } from '../../src/log.ts';

/**
 * The approval gate on the wire, in both eras: a gated call proposes and does nothing; the app-only executing tool
 * acts once for the proof of that proposal; replayed, forged, expired and re-targeted proofs, changed arguments and
 * calls without a proof do nothing and say why; where the client can be asked, the same gate asks by elicitation.
 */

const approvalView = defineView({
  uri: 'ui://fixture/approval',
  name: 'approval',
  html: () => '<!doctype html>',
});

/** A consequential fixture: erases a named record, counting every erasure it really did. */
function fixture(secret = 'a secret of at least sixteen bytes') {
  const erased: string[] = [];
  const records = new Set(['alpha', 'beta', 'gamma']);
  const erase = defineTool({
    name: 'erase',
    description: 'Erases a record.',
    inputSchema: {
      type: 'object',
      properties: { record: { type: 'string' } },
      required: ['record'],
      additionalProperties: false,
    } as const,
    annotations: { destructiveHint: true },
    approval: {
      view: approvalView,
      describe: ({ record }) => {
        if (!records.has(record)) throw new ToolError(`There is no record "${record}"; nothing to erase.`);
        return `Erase the record "${record}".`;
      },
    },
    handler: ({ record }) => {
      records.delete(record);
      erased.push(record);
      return `Erased "${record}".`;
    },
  });
  const server = createMcpServer({
    info: { name: 'approval-fixture', version: '1' },
    tools: [erase],
    approvals: { secret },
  });
  return { server, erased };
}

let id = 0;
const handshake = (server: McpServer, method: string, params: Record<string, unknown>) =>
  send(server, { body: { jsonrpc: '2.0', id: ++id, method, params } });
const stateless = (
  server: McpServer,
  params: Record<string, unknown>,
  capabilities: Record<string, unknown> = {},
) =>
  send(server, {
    headers: statelessHeaders('tools/call', params.name as string),
    body: {
      jsonrpc: '2.0',
      id: ++id,
      method: 'tools/call',
      params: {
        ...params,
        _meta: { ...statelessMeta(), 'io.modelcontextprotocol/clientCapabilities': capabilities },
      },
    },
  });
const call = async (server: McpServer, name: string, args: Record<string, unknown>) =>
  (await handshake(server, 'tools/call', { name, arguments: args })).json.result;
const text = (result: any) => result.content.map((b: any) => b.text).join('\n');
const SHOWS_VIEWS = {
  extensions: { 'io.modelcontextprotocol/ui': { mimeTypes: ['text/html;profile=mcp-app'] } },
};

/** Proposes through the handshake era and returns the proposal the view would get. */
async function propose(server: McpServer, record = 'alpha') {
  const result = await call(server, 'erase', { record });
  expect(result.isError).toBeUndefined();
  return result._meta[APPROVAL_META_KEY];
}

describe('listing', () => {
  it.each(['handshake', 'stateless'] as const)(
    '%s: the gated tool links the approval view; its executor is app-only',
    async (era) => {
      const { server } = fixture();
      const res =
        era === 'handshake'
          ? await handshake(server, 'tools/list', {})
          : await send(server, {
              headers: statelessHeaders('tools/list'),
              body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: { _meta: statelessMeta() } },
            });
      const [gated, executing] = res.json.result.tools;
      expect(gated).toMatchObject({
        name: 'erase',
        annotations: { destructiveHint: true },
        _meta: { ui: { resourceUri: 'ui://fixture/approval' } },
      });
      expect(executing).toMatchObject({
        name: 'erase_approved',
        annotations: { destructiveHint: true },
        _meta: { ui: { resourceUri: 'ui://fixture/approval', visibility: ['app'] } },
        inputSchema: { required: ['arguments', 'proof', 'decision'] },
      });
    },
  );
});

describe('the view path', () => {
  it('a gated call proposes, does nothing, and keeps the proof out of what the model reads', async () => {
    const { server, erased } = fixture();
    const result = await call(server, 'erase', { record: 'alpha' });
    expect(erased).toEqual([]);
    expect(text(result)).toMatch(
      /^Waiting for the person's approval; nothing has been done yet\. Erase the record "alpha"\./,
    );
    const proposal = result._meta[APPROVAL_META_KEY];
    expect(proposal).toMatchObject({
      tool: 'erase',
      description: 'Erase the record "alpha".',
      arguments: { record: 'alpha' },
      approveWith: 'erase_approved',
    });
    // The time left, for a view whose clock may be off: the default ten minutes, less the call's own time.
    expect(proposal.expiresInMs).toBeGreaterThan(10 * 60_000 - 5_000);
    expect(proposal.expiresInMs).toBeLessThanOrEqual(10 * 60_000);
    expect(text(result)).not.toContain(proposal.proof);
    expect(result.structuredContent).toBeUndefined();
  });

  it('the describe step refuses at once when there is nothing to do', async () => {
    const { server } = fixture();
    const result = await call(server, 'erase', { record: 'zeta' });
    expect(result).toMatchObject({
      isError: true,
      content: [{ text: 'There is no record "zeta"; nothing to erase.' }],
    });
  });

  it('approving runs the action once; the same proof again does nothing and says why', async () => {
    const { server, erased } = fixture();
    const p = await propose(server);
    const approve = { arguments: p.arguments, proof: p.proof, decision: 'approve' };
    expect(text(await call(server, 'erase_approved', approve))).toBe('Erased "alpha".');
    const replay = await call(server, 'erase_approved', approve);
    expect(replay.isError).toBe(true);
    expect(text(replay)).toMatch(
      /already used: each approval runs erase at most once, so nothing more was done/,
    );
    expect(erased).toEqual(['alpha']);
  });

  it('the same proof sent many times at once acts exactly once', async () => {
    const { server, erased } = fixture();
    const p = await propose(server);
    const approve = { arguments: p.arguments, proof: p.proof, decision: 'approve' };
    const results = await Promise.all(
      Array.from({ length: 8 }, () => call(server, 'erase_approved', approve)),
    );
    expect(results.filter((r) => !r.isError)).toHaveLength(1);
    expect(erased).toEqual(['alpha']);
  });

  it('the executing call never writes its arguments (the proof) into the audit log', async () => {
    const lines: Record<string, unknown>[] = [];
    const erase = defineTool({
      name: 'erase',
      description: 'Erases.',
      logArguments: true,
      approval: { view: approvalView, describe: () => 'Erase.' },
      handler: () => 'Erased.',
    });
    const server = createMcpServer({ info: { name: 'audit', version: '1' }, tools: [erase] });
    const log = {
      ...silentLogger,
      info: (message: string, fields?: Record<string, unknown>) => void lines.push({ message, ...fields }),
    };
    const rpc = (name: string, args: Record<string, unknown>) =>
      server.handle(
        {
          method: 'POST',
          path: '/mcp',
          headers: { ...BASE_HEADERS },
          body: JSON.stringify({
            jsonrpc: '2.0',
            id: 1,
            method: 'tools/call',
            params: { name, arguments: args },
          }),
        },
        { requestId: 'r', log: log as never },
      );
    const proposal = JSON.parse((await rpc('erase', {})).body!).result._meta[APPROVAL_META_KEY];
    await rpc('erase_approved', { arguments: {}, proof: proposal.proof, decision: 'approve' });
    const audits = lines.filter((l) => l.tool === 'erase_approved');
    expect(audits.length).toBeGreaterThan(0);
    expect(JSON.stringify(lines)).not.toContain(proposal.proof);
  });

  it('rejecting does nothing and spends the proof', async () => {
    const { server, erased } = fixture();
    const p = await propose(server);
    expect(
      text(
        await call(server, 'erase_approved', { arguments: p.arguments, proof: p.proof, decision: 'reject' }),
      ),
    ).toBe('The person rejected it, so nothing was done.');
    const later = await call(server, 'erase_approved', {
      arguments: p.arguments,
      proof: p.proof,
      decision: 'approve',
    });
    expect(later.isError).toBe(true);
    expect(erased).toEqual([]);
  });

  it.each([
    ['changed arguments', (p: any) => ({ arguments: { record: 'beta' }, proof: p.proof })],
    ['an extra argument', (p: any) => ({ arguments: { ...p.arguments, also: 'gamma' }, proof: p.proof })],
    ['a forged signature', (p: any) => ({ arguments: p.arguments, proof: `${p.proof.slice(0, -4)}AAAA` })],
    [
      'a later expiry',
      (p: any) => ({
        arguments: p.arguments,
        proof: p.proof.replace(/^(a2\.[0-9a-f]{8})\.[0-9a-z]+/, '$1.zzzzzzz'),
      }),
    ],
    [
      'a made-up proof',
      (p: any) => ({
        arguments: p.arguments,
        proof: `${p.proof.slice(0, 12)}abc.AAAAAAAAAAAAAAAAAAAAAA.AAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAAA`,
      }),
    ],
    ['no proof at all', (p: any) => ({ arguments: p.arguments, proof: '' })],
  ])('%s: refused, nothing done, and the real proof still works', async (_label, tamper) => {
    const { server, erased } = fixture();
    const p = await propose(server);
    const refused = await call(server, 'erase_approved', { ...tamper(p), decision: 'approve' });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/does not match this call .* so nothing was done/);
    expect(erased).toEqual([]);
    expect(
      text(
        await call(server, 'erase_approved', { arguments: p.arguments, proof: p.proof, decision: 'approve' }),
      ),
    ).toBe('Erased "alpha".');
  });

  it('a proof for null is refused for a number that parses as Infinity (1e999), which JSON writes as null', async () => {
    const runs: unknown[] = [];
    const limit = defineTool({
      name: 'set_limit',
      description: 'Sets a spending limit; null removes it.',
      inputSchema: { type: 'object', properties: { limit: { type: ['number', 'null'] } } } as const,
      approval: { view: approvalView, describe: ({ limit }) => `Set the limit to ${limit}.` },
      handler: ({ limit }) => {
        runs.push(limit);
        return `Limit ${limit}.`;
      },
    });
    const server = createMcpServer({ info: { name: 'limits', version: '1' }, tools: [limit] });
    const p = (await call(server, 'set_limit', { limit: null }))._meta[APPROVAL_META_KEY];
    const raw =
      `{"jsonrpc":"2.0","id":1,"method":"tools/call","params":{"name":"set_limit_approved","arguments":` +
      `{"arguments":{"limit":1e999},"proof":${JSON.stringify(p.proof)},"decision":"approve"}}}`;
    const refused = (await send(server, { raw })).json.result;
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/does not match this call/);
    expect(runs).toEqual([]);
  });

  it('a proof from another server (another key) is refused', async () => {
    const a = fixture();
    const b = fixture('another secret, another deployment');
    const p = await propose(a.server);
    const refused = await call(b.server, 'erase_approved', {
      arguments: p.arguments,
      proof: p.proof,
      decision: 'approve',
    });
    expect(refused.isError).toBe(true);
    expect(b.erased).toEqual([]);
  });

  it('a proof issued to one caller does nothing for another', async () => {
    const erased: string[] = [];
    const erase = defineTool({
      name: 'erase',
      description: 'Erases.',
      approval: { view: approvalView, describe: () => 'Erase.' },
      handler: (_args, ctx) => {
        erased.push(ctx.principal!.subject);
        return 'Erased.';
      },
    });
    const server = createMcpServer({
      info: { name: 'callers', version: '1' },
      tools: [erase],
      auth: callersByName,
    });
    const as = async (who: string, name: string, args: Record<string, unknown>) =>
      (
        await send(server, {
          headers: { authorization: `Bearer ${who}` },
          body: { jsonrpc: '2.0', id: ++id, method: 'tools/call', params: { name, arguments: args } },
        })
      ).json.result;
    const proposal = (await as('alice', 'erase', {}))._meta[APPROVAL_META_KEY];
    const approve = { arguments: proposal.arguments, proof: proposal.proof, decision: 'approve' };
    const mallory = await as('mallory', 'erase_approved', approve);
    expect(mallory.isError).toBe(true);
    expect(text(mallory)).toMatch(/does not match this call/);
    expect(text(await as('alice', 'erase_approved', approve))).toBe('Erased.');
    expect(erased).toEqual(['alice']);
  });

  it('a direct call without the proposal is refused by the schema, saying what is missing', async () => {
    const { server, erased } = fixture();
    const refused = await call(server, 'erase_approved', { arguments: { record: 'alpha' } });
    expect(refused.isError).toBe(true);
    expect(text(refused)).toMatch(/Invalid arguments for tool "erase_approved"/);
    expect(erased).toEqual([]);
  });

  it('2026-07-28: a client that shows views gets the proposal', async () => {
    const { server, erased } = fixture();
    const res = await stateless(server, { name: 'erase', arguments: { record: 'alpha' } }, SHOWS_VIEWS);
    expect(res.json.result).toMatchObject({
      resultType: 'complete',
      _meta: { [APPROVAL_META_KEY]: { tool: 'erase' } },
    });
    expect(erased).toEqual([]);
  });
});

describe('the elicitation path (2026-07-28)', () => {
  const ask = (server: McpServer, extra: Record<string, unknown> = {}) =>
    stateless(server, { name: 'erase', arguments: { record: 'alpha' }, ...extra }, { elicitation: {} });

  it('asks with a yes/no form and acts once on an accepted yes', async () => {
    const { server, erased } = fixture();
    const first = (await ask(server)).json.result;
    expect(first).toMatchObject({
      resultType: 'input_required',
      inputRequests: {
        approval: {
          method: 'elicitation/create',
          params: {
            message: 'Approve this? Erase the record "alpha".',
            requestedSchema: {
              type: 'object',
              properties: { approve: { type: 'boolean' } },
              required: ['approve'],
            },
          },
        },
      },
    });
    expect(erased).toEqual([]);
    const retry = {
      inputResponses: { approval: { action: 'accept', content: { approve: true } } },
      requestState: first.requestState,
    };
    expect(text((await ask(server, retry)).json.result)).toBe('Erased "alpha".');
    const replay = (await ask(server, retry)).json.result;
    expect(replay.isError).toBe(true);
    expect(text(replay)).toMatch(/already answered/);
    expect(erased).toEqual(['alpha']);
  });

  it.each([
    ['a decline', { action: 'decline' }, /^The person did not approve, so nothing was done\.$/],
    ['an accepted no', { action: 'accept', content: { approve: false } }, /^The person did not approve/],
    // A dismissed question is not a refusal: the model is told to ask rather than to take it as a no.
    [
      'a cancel',
      { action: 'cancel' },
      /^The person closed the question without answering, so nothing was done\./,
    ],
  ])('%s does nothing, and says which it was', async (_label, answer, says) => {
    const { server, erased } = fixture();
    const first = (await ask(server)).json.result;
    const res = (
      await ask(server, { inputResponses: { approval: answer }, requestState: first.requestState })
    ).json.result;
    expect(text(res)).toMatch(says);
    expect(erased).toEqual([]);
  });

  it('an answer without the question it answers does nothing', async () => {
    const { server, erased } = fixture();
    const res = (
      await ask(server, { inputResponses: { approval: { action: 'accept', content: { approve: true } } } })
    ).json.result;
    expect(res.isError).toBe(true);
    expect(erased).toEqual([]);
  });

  it('an answer to a question about other arguments is refused as a protocol error', async () => {
    const { server, erased } = fixture();
    const first = (await ask(server)).json.result;
    const res = await stateless(
      server,
      {
        name: 'erase',
        arguments: { record: 'beta' },
        inputResponses: { approval: { action: 'accept', content: { approve: true } } },
        requestState: first.requestState,
      },
      { elicitation: {} },
    );
    expect(res.json.error.code).toBe(-32602);
    expect(erased).toEqual([]);
  });
});

describe('a handler that asks once approved (2026-07-28)', () => {
  it('is told at once that it cannot, instead of ending the approved call with a question', async () => {
    // A question would end the call, and its answer come back as a new round that is no longer approved (each
    // approval acts once): the person would be asked to approve again, and again, for ever.
    const steps: string[] = [];
    const rename = defineTool({
      name: 'rename',
      description: 'Renames, asking for the new name.',
      approval: { describe: () => 'Rename the record.' },
      handler: async (_args, ctx) => {
        steps.push('started');
        const answer = await ctx.elicit({
          message: 'New name?',
          requestedSchema: { type: 'object', properties: { name: { type: 'string' } } },
        });
        return `Renamed to ${String(answer.content?.name)}.`;
      },
    });
    const server = createMcpServer({ info: { name: 'asks', version: '1' }, tools: [rename] });
    const call = (extra: Record<string, unknown> = {}) =>
      stateless(server, { name: 'rename', arguments: {}, ...extra }, { elicitation: {} });
    const first = (await call()).json.result;
    expect(first.inputRequests.approval).toBeDefined();
    const approved = (
      await call({
        inputResponses: { approval: { action: 'accept', content: { approve: true } } },
        requestState: first.requestState,
      })
    ).json.result;
    expect(approved.resultType).toBe('complete');
    expect(approved.isError).toBe(true);
    expect(text(approved)).toMatch(/cannot ask the person after the approval/);
    expect(steps).toEqual(['started']);
  });
});

describe('no way to ask', () => {
  it('2026-07-28 without views or elicitation: refused, saying what is needed', async () => {
    const { server, erased } = fixture();
    const res = (await stateless(server, { name: 'erase', arguments: { record: 'alpha' } })).json.result;
    expect(res.isError).toBe(true);
    expect(text(res)).toMatch(
      /needs the person's approval first: Erase the record "alpha"\. This client can neither show/,
    );
    expect(erased).toEqual([]);
  });
});

describe('declarations that could only fail later are refused at start-up', () => {
  const info = { name: 'bad', version: '1' };
  const gated = (over: Record<string, unknown>) =>
    defineTool({
      name: 'g',
      description: 'g',
      approval: { describe: () => 'x', view: approvalView },
      handler: () => 'x',
      ...over,
    });
  it.each([
    ['with task', gated({ task: { mode: 'optional' } }), /approval with task or outputSchema/],
    [
      'with an outputSchema',
      gated({ outputSchema: { type: 'object' } }),
      /approval with task or outputSchema/,
    ],
    ['without describe', gated({ approval: { view: approvalView } }), /approval with no describe function/],
    ...[Infinity, Number.NaN, 0, -60_000, '600000'].map((ttlMs): [string, ToolDefinition, RegExp] => [
      `with a ttlMs of ${String(ttlMs)}`,
      gated({ approval: { describe: () => 'x', view: approvalView, ttlMs } }),
      /approval with a ttlMs that is not a positive number of milliseconds/,
    ]),
  ])('%s', (_label, tool, message) => {
    expect(() => createMcpServer({ info, tools: [tool] })).toThrow(message);
  });
});
