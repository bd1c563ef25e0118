/**
 * Part 5: the first streamed event. One tool (it reports progress at once, works `WORK_MS`, reports again, then
 * answers) behind the local server's two modes: the HTTP API emulation with the buffered Lambda adapter (events
 * arrive with the response) and the REST API streaming emulation with the response-streaming adapter. A client on
 * loopback records when the headers, the first event and the response arrive; the tool records when it emitted the
 * first event. Server and client share this process, so both read one clock (`performance.now()`).
 */
import { setTimeout as sleep } from 'node:timers/promises';
import { defineTool } from '@mcp-lambda/server';
import {
  createLambdaHandler,
  createStreamingLambdaHandler,
  silentLogger,
  createMcpServer,
} from '@mcp-lambda/server/lambda';
import { startLocalServer } from '@mcp-lambda/dev';
import { readEvents } from '@mcp-lambda/dev/testing';
import { median, percentile } from './stats.ts';

/** How long the tool works between its first progress event and its answer. */
const WORK_MS = 200;

/** The two ways the local server can answer, as `LOCAL_API` names them. */
const STREAM_MODES = ['http', 'rest-streaming'] as const;

/** One mode's figures over all calls (milliseconds from sending the request, medians unless named p95). */
export interface StreamResult {
  api: (typeof STREAM_MODES)[number];
  calls: number;
  workMs: number;
  headersMs: number;
  firstEventMs: number;
  responseMs: number;
  /** When the first event reached the client, after the tool emitted it: median and p95. */
  deliveryMs: number;
  deliveryP95Ms: number;
}

let emittedAt = 0;

const server = createMcpServer({
  info: { name: 'bench-stream', version: '1.0.0' },
  tools: [
    defineTool({
      name: 'work',
      description: 'Reports progress, works, reports again, answers',
      handler: async (_args, ctx) => {
        ctx.progress(0, 1, 'started');
        emittedAt = performance.now();
        await sleep(WORK_MS);
        ctx.progress(1, 1, 'done');
        return 'worked';
      },
    }),
  ],
});

const BODY = JSON.stringify({
  jsonrpc: '2.0',
  id: 1,
  method: 'tools/call',
  params: { name: 'work', arguments: {}, _meta: { progressToken: 1 } },
});
const HEADERS = {
  'content-type': 'application/json',
  accept: 'application/json, text/event-stream',
  'mcp-protocol-version': '2025-11-25',
};

interface Call {
  headersMs: number;
  firstEventMs: number;
  responseMs: number;
  deliveryMs: number;
}

async function call(url: string): Promise<Call> {
  const sent = performance.now();
  const response = await fetch(url, { method: 'POST', headers: HEADERS, body: BODY });
  const headersAt = performance.now();
  const events = (await readEvents(response.body!)).filter((e) => e.message);
  if (events.length !== 3 || events.at(-1)!.message!.result?.content?.[0]?.text !== 'worked')
    throw new Error(`stream bench: unexpected answer (${events.length} events)`);
  return {
    headersMs: headersAt - sent,
    firstEventMs: events[0]!.at - sent,
    responseMs: events.at(-1)!.at - sent,
    deliveryMs: events[0]!.at - emittedAt,
  };
}

/** Serves the tool in each mode and calls it `calls` times (after two warm-up calls), one call at a time. */
export async function measureStreaming(
  calls: number,
  progress: (message: string) => void = () => {},
): Promise<StreamResult[]> {
  const results: StreamResult[] = [];
  for (const api of STREAM_MODES) {
    progress(`first streamed event: ${api}`);
    const local = await startLocalServer(
      api === 'http'
        ? { handler: createLambdaHandler(server.handle, silentLogger), port: 0 }
        : { streamingHandler: createStreamingLambdaHandler(server.handle, silentLogger), port: 0 },
    );
    try {
      const url = `${local.url}/mcp`;
      for (let i = 0; i < 2; i++) await call(url);
      const measured: Call[] = [];
      for (let i = 0; i < calls; i++) measured.push(await call(url));
      const pick = (key: keyof Call) => median(measured.map((c) => c[key]));
      results.push({
        api,
        calls,
        workMs: WORK_MS,
        headersMs: pick('headersMs'),
        firstEventMs: pick('firstEventMs'),
        responseMs: pick('responseMs'),
        deliveryMs: pick('deliveryMs'),
        deliveryP95Ms: percentile(
          measured.map((c) => c.deliveryMs),
          95,
        ),
      });
    } finally {
      await local.close();
    }
  }
  return results;
}
