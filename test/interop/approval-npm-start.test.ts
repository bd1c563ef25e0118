import { Client } from '@modelcontextprotocol/sdk/client/index.js';
import { StreamableHTTPClientTransport } from '@modelcontextprotocol/sdk/client/streamableHttp.js';
import { ElicitRequestSchema, type ElicitResult } from '@modelcontextprotocol/sdk/types.js';
import { describe, expect, it } from 'vitest';
import { start, ending } from '../support/npm-start.ts';

// `LOCAL_API=rest-streaming npm start` as a user runs it, and the official SDK 1.x client of a host that can be
// asked (it declares elicitation, not views: Claude Code, VS Code): delete_output asks the person mid-call on the
// call's own stream; yes deletes, no leaves the output in place (docs/asking.md, docs/views.md).

const linkOf = (result: any): string =>
  result.content.find((block: { type: string }) => block.type === 'resource_link').uri;

describe('delete_output through LOCAL_API=rest-streaming npm start, with an SDK 1.x client that can be asked', () => {
  it('asks mid-call: a no leaves the output readable, a yes deletes it', async () => {
    const asked: unknown[] = [];
    let answer: ElicitResult = { action: 'accept', content: { approve: false } };
    const run = await start(
      { PORT: '0', LOCAL_API: 'rest-streaming', POWERTOOLS_LOG_LEVEL: 'WARN', OFFLOAD_BUCKET: undefined },
      async (url) => {
        const client = new Client(
          { name: 'approval-sdk1', version: '1.0.0' },
          { capabilities: { elicitation: {} } },
        );
        client.setRequestHandler(ElicitRequestSchema, async (request) => {
          asked.push(request.params);
          return answer;
        });
        await client.connect(new StreamableHTTPClientTransport(new URL(url)));
        try {
          const uri = linkOf(await client.callTool({ name: 'generate_report', arguments: { rows: 5000 } }));
          const readable = async () =>
            !(await client.callTool({ name: 'read_output', arguments: { uri, count: 100 } })).isError;

          const declined = await client.callTool({ name: 'delete_output', arguments: { uri } });
          expect(asked).toHaveLength(1);
          expect(asked[0]).toMatchObject({ requestedSchema: { required: ['approve'] } });
          expect(declined.content).toEqual([
            { type: 'text', text: 'The person did not approve, so nothing was done.' },
          ]);
          expect(await readable()).toBe(true);

          answer = { action: 'accept', content: { approve: true } };
          const approved = await client.callTool({ name: 'delete_output', arguments: { uri } });
          expect(asked).toHaveLength(2);
          expect(approved.isError).toBeFalsy();
          expect(await readable()).toBe(false);
        } finally {
          await client.close();
        }
      },
    );
    expect(run.stderr).toEqual([]);
    expect(run.code, ending(run)).toBe(0);
  }, 60_000);
});
