/**
 * Part 9: what one mid-call question costs the server on the streaming API (docs/asking.md). The call waits on
 * instance A (this process, the streaming adapter behind the local REST API emulation); the client's answer is
 * POSTed to instance B (a process of its own); both share a local DynamoDB (dynalite on loopback), so every answer
 * crosses instances through the call state's table, as behind API Gateway. Per poll interval: the time from the answer
 * POST leaving the client to the call's result arriving (p50, p95), the table reads per second a call waits (counted
 * on A's store), and the DynamoDB and Lambda cost of a thousand asks that each wait ASSUMED_WAIT_S.
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@mcp-lambda/server';
import { silentLogger } from '@mcp-lambda/server/lambda';
import { dynamoCallState } from '@mcp-lambda/server/aws';
import type { CallState } from '@mcp-lambda/server/backend';
import {
  answer,
  initialize,
  startCall,
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  serveStreamingServer,
} from '@mcp-lambda/dev/testing';
import { ASSUMED_WAIT_S, PRICE_PER_GB_SECOND_USD } from './cost.ts';
import type { AskResult } from './results.ts';
import { median, percentile } from './stats.ts';
import {
  startAskingInstance,
  withInstanceEnd,
  type AskingInstance,
} from '../support/start-asking-instance.ts';

/** Poll intervals measured. */
const INTERVALS_MS = [50, 100, 250, 1000] as const;
/** How long the read-rate probe waits before answering. */
const PROBE_WAIT_MS = 3_000;
/** DynamoDB on-demand, us-east-1: USD per million write and (strongly consistent, 4 KB) read request units. */
const PRICE_PER_MILLION_WRU_USD = 0.625;
const PRICE_PER_MILLION_RRU_USD = 0.125;
/** Writes of one ask: the question, the answer, the removal (items under 1 KB). */
const WRITES_PER_ASK = 3;
/** The MCP function's memory, GB, for the waiting time it is billed. */
const FUNCTION_GB = 1;
const KEY = 'bench-asks-session-key-000000000000000';
const FORM = { type: 'object' as const, properties: { ok: { type: 'boolean' as const } } };

/** A call state that counts the reads of its questions. */
function counting(state: CallState): CallState & { reads: number } {
  const { questions } = state;
  const counted = { ...state, reads: 0 };
  counted.questions = {
    ...questions,
    read: (...args) => {
      counted.reads++;
      return questions.read(...args);
    },
  };
  return counted;
}

/** One ask through A, answered through B after `waitMs`: the answer-to-result time. */
async function oneAsk(a: string, b: string, session: string, waitMs: number): Promise<number> {
  const call = await startCall(a, session, 'confirm');
  const question = await call.next();
  if (waitMs) await sleep(waitMs);
  const t0 = performance.now();
  const { status } = await answer(b, session, question.id, { action: 'accept', content: { ok: true } });
  if (status !== 202) throw new Error(`the answer was refused (${status})`);
  const { result } = await call.result();
  if (result?.content?.[0]?.text !== 'accept') throw new Error('the call did not resume with the answer');
  return performance.now() - t0;
}

/** Measures each poll interval: `asks` answered at once, then one answered after PROBE_WAIT_MS. */
export async function measureAsks(asks: number, progress: (message: string) => void): Promise<AskResult[]> {
  const dynamo = await startLocalDynamo('asks-bench');
  let answerer: AskingInstance | undefined;
  const results: AskResult[] = [];
  try {
    answerer = await startAskingInstance(dynamo, KEY);
    for (const pollIntervalMs of INTERVALS_MS) {
      progress(`asks: poll interval ${pollIntervalMs} ms`);
      const store = counting(
        dynamoCallState({
          table: dynamo.tableName,
          endpoint: dynamo.endpoint,
          credentials: LOCAL_DYNAMO_CREDENTIALS,
        }),
      );
      const server = await serveStreamingServer(
        {
          info: { name: 'asks-bench', version: '1.0.0' },
          tools: [
            defineTool({
              name: 'confirm',
              description: 'Asks one question',
              timeoutMs: 60_000,
              handler: async (_args, ctx) =>
                (await ctx.elicit({ message: 'Go?', requestedSchema: FORM })).action,
            }),
          ],
          sessions: { keys: [KEY] },
          callState: store,
          askPollIntervalMs: pollIntervalMs,
        },
        { log: silentLogger },
      );
      try {
        const session = (await initialize(server.url, { elicitation: {} }))!;
        for (let i = 0; i < 3; i++) await oneAsk(server.url, answerer.url, session, 0);
        const samples: number[] = [];
        for (let i = 0; i < asks; i++) samples.push(await oneAsk(server.url, answerer.url, session, 0));
        store.reads = 0;
        const t0 = performance.now();
        await oneAsk(server.url, answerer.url, session, PROBE_WAIT_MS);
        const readsPerSecond = store.reads / ((performance.now() - t0) / 1000);
        const readUnits = ASSUMED_WAIT_S * readsPerSecond;
        results.push({
          pollIntervalMs,
          asks,
          p50Ms: Math.round(median(samples) * 10) / 10,
          p95Ms: Math.round(percentile(samples, 95) * 10) / 10,
          readsPerWaitedSecond: Math.round(readsPerSecond * 10) / 10,
          dynamoUsdPer1000Asks:
            (1000 * (WRITES_PER_ASK * PRICE_PER_MILLION_WRU_USD + readUnits * PRICE_PER_MILLION_RRU_USD)) /
            1e6,
          lambdaUsdPer1000Asks: 1000 * ASSUMED_WAIT_S * FUNCTION_GB * PRICE_PER_GB_SECOND_USD,
        });
      } finally {
        await server.close();
      }
    }
  } catch (error) {
    throw withInstanceEnd(answerer, error);
  } finally {
    answerer?.child.kill('SIGTERM');
    await dynamo.close();
  }
  return results;
}
