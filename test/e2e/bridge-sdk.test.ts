import {
  Client as Client2,
  StreamableHTTPClientTransport as Transport2,
  UnauthorizedError,
} from '@modelcontextprotocol/client';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { startBridgeStack, type BridgeStack } from '../support/bridge.ts';
import { browse, MemoryOAuthProvider } from '../support/oauth.ts';

let stack: BridgeStack;
beforeAll(async () => {
  stack = await startBridgeStack();
});
afterAll(async () => {
  await stack?.close();
});

describe('SDK 2.x client through the bridge', () => {
  it('registers dynamically, signs in through consent and the upstream, and calls a tool', async () => {
    const redirect = 'http://127.0.0.1:53682/callback';
    const provider = new MemoryOAuthProvider(redirect);
    const url = new URL(stack.resource);
    const first = new Transport2(url, { authProvider: provider as never });
    const client = new Client2({ name: 'e2e', version: '1.0.0' });
    await expect(client.connect(first)).rejects.toBeInstanceOf(UnauthorizedError);
    expect(provider.authorizationUrl).toBeDefined();
    const { callback, steps } = await browse(provider.authorizationUrl!.href, {
      until: redirect,
      email: stack.upstream.user.email,
      password: stack.password,
    });
    expect(steps.map((s) => s.kind)).toContain('consent');
    await first.finishAuth(callback.searchParams);
    const second = new Client2({ name: 'e2e', version: '1.0.0' });
    await second.connect(new Transport2(url, { authProvider: provider as never }));
    const result = await second.callTool({ name: 'whoami', arguments: {} });
    expect(result.structuredContent).toMatchObject({ subject: 'dev-user', scopes: ['mcp'] });
    await second.close();
  });
});
