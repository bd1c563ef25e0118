/**
 * Part 11b: what resuming a cut stream costs on the streaming API (docs/streaming.md). The call runs on instance B (a
 * process of its own, the asking instance), whose tool cuts its stream and answers 100 to 600 ms later; the client resumes
 * at once with GET and Last-Event-ID on instance A (this process); both share a local DynamoDB, so the result reaches
 * A only through the log, read every poll interval. Per poll interval: the time from the tool's answer to its
 * arrival on the resumed stream (p50, p95; one clock, both processes on this machine), the log reads a resume makes
 * and per waited second (counted on A's store), and the writes of one cut call (the head and the response).
 */
import { silentLogger } from '@mcp-lambda/server/lambda';
import { dynamoCallState } from '@mcp-lambda/server/aws';
import type { CallState } from '@mcp-lambda/server/backend';
import {
  initialize,
  post,
  LOCAL_DYNAMO_CREDENTIALS,
  startLocalDynamo,
  serveStreamingServer,
  readEvents,
} from '@mcp-lambda/dev/testing';
import type { ResumeResult } from './results.ts';
import { median, percentile } from './stats.ts';
import {
  startAskingInstance,
  withInstanceEnd,
  type AskingInstance,
} from '../support/start-asking-instance.ts';

/** Poll intervals measured. */
const INTERVALS_MS = [50, 250] as const;
const KEY = 'bench-resumes-session-key-0000000000000';

/** A call state that counts the log reads it serves. */
function counting(state: CallState): CallState & { reads: number } {
  const { streamLog } = state;
  const counted = { ...state, reads: 0 };
  counted.streamLog = {
    ...streamLog,
    readHead: (...args) => (counted.reads++, streamLog.readHead(...args)),
    readEvent: (...args) => (counted.reads++, streamLog.readEvent(...args)),
  };
  return counted;
}

/** One call cut on B and resumed on A: the tool's answer to its arrival, and how long the GET waited. */
async function oneResume(
  b: string,
  a: string,
  session: string,
): Promise<{ latencyMs: number; waitedMs: number }> {
  const res = await post(
    b,
    { jsonrpc: '2.0', id: 1, method: 'tools/call', params: { name: 'cut_and_stamp' } },
    session,
  );
  const cut = await readEvents(res.body!);
  const lastId = cut.findLast((e) => e.id)?.id;
  if (!lastId) throw new Error('the stream was not cut with an id');
  const t0 = performance.now();
  const get = await fetch(a, {
    headers: {
      accept: 'text/event-stream',
      'mcp-protocol-version': '2025-11-25',
      'mcp-session-id': session,
      'last-event-id': lastId,
    },
  });
  let latencyMs = NaN;
  await readEvents(get.body!, (event) => {
    const text = event.message?.result?.content?.[0]?.text;
    if (text) latencyMs = performance.timeOrigin + performance.now() - Number(text);
  });
  if (!Number.isFinite(latencyMs)) throw new Error(`the resumed stream had no result (${get.status})`);
  return { latencyMs, waitedMs: performance.now() - t0 };
}

/** Measures each poll interval over `count` resumed calls. */
export async function measureResumes(
  count: number,
  progress: (message: string) => void,
): Promise<ResumeResult[]> {
  const dynamo = await startLocalDynamo('resumes-bench');
  let caller: AskingInstance | undefined;
  const results: ResumeResult[] = [];
  try {
    caller = await startAskingInstance(dynamo, KEY);
    for (const pollIntervalMs of INTERVALS_MS) {
      progress(`resumes: poll interval ${pollIntervalMs} ms`);
      const store = counting(
        dynamoCallState({
          table: dynamo.tableName,
          endpoint: dynamo.endpoint,
          credentials: LOCAL_DYNAMO_CREDENTIALS,
        }),
      );
      const a = await serveStreamingServer(
        {
          info: { name: 'resumes-bench', version: '1.0.0' },
          sessions: { keys: [KEY] },
          callState: store,
          askPollIntervalMs: pollIntervalMs,
        },
        { log: silentLogger },
      );
      try {
        const session = (await initialize(caller.url, {}))!;
        for (let i = 0; i < 3; i++) await oneResume(caller.url, a.url, session);
        store.reads = 0;
        const samples: number[] = [];
        let waited = 0;
        for (let i = 0; i < count; i++) {
          const { latencyMs, waitedMs } = await oneResume(caller.url, a.url, session);
          samples.push(latencyMs);
          waited += waitedMs;
        }
        results.push({
          pollIntervalMs,
          resumes: count,
          p50Ms: Math.round(median(samples) * 10) / 10,
          p95Ms: Math.round(percentile(samples, 95) * 10) / 10,
          readsPerResume: Math.round((store.reads / count) * 10) / 10,
          readsPerWaitedSecond: Math.round((store.reads / (waited / 1000)) * 10) / 10,
        });
      } finally {
        await a.close();
      }
    }
  } catch (error) {
    throw withInstanceEnd(caller, error);
  } finally {
    caller?.child.kill('SIGTERM');
    await dynamo.close();
  }
  return results;
}
