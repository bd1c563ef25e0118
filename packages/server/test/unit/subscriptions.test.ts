import { describe, expect, it } from 'vitest';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { statelessHeaders, statelessMeta, send } from '@mcp-lambda/dev/testing';

const server = createMcpServer({ info: { name: 'unit', version: '1.0.0' } });

describe('subscriptions/listen on a server with nothing to push', () => {
  it('acknowledges an empty filter tagged with the subscription id, then ends the stream with the result', async () => {
    const res = await send(server, {
      headers: statelessHeaders('subscriptions/listen'),
      body: {
        jsonrpc: '2.0',
        id: 'sub-1',
        method: 'subscriptions/listen',
        params: { _meta: statelessMeta(), notifications: { toolsListChanged: true } },
      },
    });
    expect(res.headers['content-type']).toBe('text/event-stream');
    const messages = res.body
      .split('\n')
      .filter((line) => line.startsWith('data: '))
      .map((line) => JSON.parse(line.slice(6)));
    expect(messages).toHaveLength(2);
    // Schema SubscriptionsAcknowledgedNotification: the first message carrying the subscription's id.
    expect(messages[0]).toEqual({
      jsonrpc: '2.0',
      method: 'notifications/subscriptions/acknowledged',
      params: { notifications: {}, _meta: { 'io.modelcontextprotocol/subscriptionId': 'sub-1' } },
    });
    expect(messages[1]).toMatchObject({ id: 'sub-1', result: { resultType: 'complete' } });
  });
});
