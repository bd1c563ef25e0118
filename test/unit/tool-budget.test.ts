import { describe, expect, it } from 'vitest';
import { defineTool, ToolError } from '@mcp-lambda/server';
import { createMcpServer, createOffloader } from '@mcp-lambda/server/lambda';
import { memoryStorage } from '@mcp-lambda/server/backend';
import { generateReport } from '../../src/tools/generate-report.ts';
import { renderChart } from '../../src/tools/render-chart.ts';
import { send } from '@mcp-lambda/dev/testing';

/** Keeps the CPU busy for `ms` without yielding: what a computing tool does between checkpoints. */
function spin(ms: number): void {
  const end = performance.now() + ms;
  while (performance.now() < end);
}

let finished = 0;
/** When the cooperative tool last started (the budget counts from there, after argument validation). */
let crunchStarted = 0;
const server = createMcpServer({
  info: { name: 'budget', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'crunch',
      description: '2 s of CPU work in the cooperative style of README "Add a tool"',
      timeoutMs: 100,
      handler: async (_args, ctx) => {
        crunchStarted = performance.now();
        for (let i = 0; i < 2_000; i++) {
          spin(1);
          await ctx.checkpoint();
        }
        finished += 1;
        return 'crunched';
      },
    }),
    defineTool({
      name: 'blocking',
      description: 'computes past its budget without checkpoints, then returns',
      timeoutMs: 50,
      handler: () => {
        spin(150);
        return 'late';
      },
    }),
    defineTool({ name: 'quick', description: 'answers at once', handler: () => 'quick' }),
    defineTool({
      name: 'waiting',
      description: 'waits on a call that takes its signal, and says what it waited for when stopped',
      timeoutMs: 50,
      handler: (_args, ctx) =>
        new Promise((_resolve, reject) =>
          ctx.signal.addEventListener('abort', () =>
            reject(new ToolError('The upstream service did not answer; try again later.')),
          ),
        ),
    }),
    defineTool({
      name: 'stuck',
      description: 'waits on something that ignores its signal',
      timeoutMs: 50,
      handler: () => new Promise(() => undefined),
    }),
  ],
});

const call = (name: string) =>
  send(server, { body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name } } });

describe('time budgets of tools that compute', () => {
  it('a tool with a 100 ms budget doing 2 s of CPU work with checkpoints answers isError within 300 ms', async () => {
    await call('quick'); // loads the schema compiler, which the first call of a process pays for
    const res = await call('crunch');
    const elapsed = performance.now() - crunchStarted;
    expect(res.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('time budget of 100 ms') }],
    });
    expect(elapsed).toBeLessThan(300);
    expect(finished).toBe(0);
  });

  it('other requests are answered while such a tool computes', async () => {
    const order: string[] = [];
    const crunch = call('crunch').then(() => order.push('crunch'));
    const quick = call('quick').then((res) => order.push(res.json.result.content[0].text));
    await Promise.all([crunch, quick]);
    expect(order).toEqual(['quick', 'crunch']);
  });

  it('a result that arrives after the budget is an isError saying so, not a late success', async () => {
    const res = await call('blocking');
    expect(res.json.result).toMatchObject({
      isError: true,
      content: [{ type: 'text', text: expect.stringContaining('time budget of 50 ms') }],
    });
  });
});

describe('when the budget ends, a waiting tool may say what it waited for', () => {
  it('a tool whose awaited call stops with its signal answers in its own words', async () => {
    const res = await call('waiting');
    expect(res.json.result).toEqual({
      isError: true,
      content: [{ type: 'text', text: 'The upstream service did not answer; try again later.' }],
    });
  });

  it('a tool that ignores its signal gets the budget’s words', async () => {
    const res = await call('stuck');
    expect(res.json.result.content[0].text).toContain('time budget of 50 ms');
  });
});

describe('the example tools that loop keep to their budget', () => {
  // With storage, so that the streamed report is stored as it is made rather than cut off at the inline limit.
  const tight = createMcpServer({
    info: { name: 'tight', version: '1.0.0' },
    tools: [generateReport, renderChart],
    offloader: createOffloader({
      storage: memoryStorage(),
      prefix: 'outputs/',
      thresholdBytes: 1024,
      ttlDays: 1,
    }),
    toolTimeoutMs: 100,
  });
  it.each([
    ['generate_report', { rows: 3_000_000 }],
    ['render_chart', { values: [1, 2, 3], width: 4096, height: 4096 }],
  ])('%s stops at a 100 ms budget with isError', async (name, args) => {
    const started = performance.now();
    const res = await send(tight, {
      body: { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name, arguments: args } },
    });
    expect(res.json.result).toMatchObject({ isError: true });
    expect(res.json.result.content[0].text).toContain('time budget of 100 ms');
    expect(performance.now() - started).toBeLessThan(1_000);
  });
});
