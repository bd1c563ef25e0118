import { afterAll, describe, expect, it } from 'vitest';
import { startLocalLambda, type LocalLambda } from '../../src/local/lambda-invoke.ts';
import { lambdaInvoker } from '@mcp-lambda/server/aws';

// The local Lambda Invoke API stand-in keeps a function's time limit as Lambda does: the handler sees what is left
// of it, and an invocation that outlives it is answered with Lambda's timeout error.

const started: LocalLambda[] = [];
afterAll(async () => {
  for (const lambda of started) await lambda.close();
});

async function serve(
  handler: (event: unknown, context: { getRemainingTimeInMillis(): number }) => Promise<unknown>,
) {
  const lambda = await startLocalLambda({ functions: { fn: handler }, timeoutMs: 300 });
  started.push(lambda);
  const post = async () => {
    const res = await fetch(`${lambda.endpoint}/2015-03-31/functions/fn/invocations`, {
      method: 'POST',
      body: '{}',
    });
    return { error: res.headers.get('x-amz-function-error'), body: (await res.json()) as any };
  };
  return { lambda, post };
}

describe('the local Lambda stand-in with a time limit', () => {
  it('tells the handler the time left, and answers what it returns in time', async () => {
    let left = -1;
    const { post } = await serve(async (_event, context) => {
      left = context.getRemainingTimeInMillis();
      return { ok: true };
    });
    expect(await post()).toEqual({ error: null, body: { ok: true } });
    expect(left).toBeGreaterThan(0);
    expect(left).toBeLessThanOrEqual(300);
  });

  it('answers a handler that never returns as Lambda does at its timeout, and the invoker reports it', async () => {
    const { lambda, post } = await serve(() => new Promise(() => undefined));
    expect(await post()).toEqual({
      error: 'Unhandled',
      body: { errorType: 'Sandbox.Timedout', errorMessage: 'Task timed out after 0.30 seconds' },
    });
    const invoke = lambdaInvoker({
      functionName: 'fn',
      endpoint: lambda.endpoint,
      credentials: { accessKeyId: 'test', secretAccessKey: 'test' },
    });
    await expect(invoke('{}', {})).rejects.toThrow(/the companion function failed \(Unhandled\)/);
  });
});
