/** The feature rows of the bench report: what a model is handed, refused reads, asking, views. */
import { ASSUMED_WAIT_S } from './cost.ts';
import type { BenchResults } from './results.ts';
import { kb, n, table } from './table.ts';

/** 9. The bytes a model is handed, per framework. */
export function modelBytesLines(results: BenchResults): string[] {
  const r = results.modelBytes;
  if (!r) return [];
  const frameworks = Object.keys(r.page) as (keyof typeof r.page)[];
  return [
    '9. What the model is handed, in bytes: tool definitions (sent with every model call), the notice of a stored ' +
      `report, and a default read_output page (its envelope: all but the ${n(r.pageTextBytes)} bytes of page text)`,
    table(
      ['<', 'all tools', 'read_output'],
      [
        ['tools/list', n(r.toolsList.allBytes), n(r.toolsList.readOutputBytes)],
        ['as function declarations', n(r.declarations.allBytes), n(r.declarations.readOutputBytes)],
      ],
    ),
    table(
      ['framework', 'offload notice', 'read_output page', 'page envelope'],
      frameworks.map((f) => [f, n(r.notice[f]), n(r.page[f]), n(r.page[f] - r.pageTextBytes)]),
    ),
    '',
  ];
}

/** 10. Refused reads by kind of id: another caller's and a never-issued one must take the same time. */
export function existenceLines(results: BenchResults): string[] {
  const e = results.existence;
  if (!e) return [];
  return [
    `10. Refused reads by kind of id, against the local S3 stand-in: ${n(e.tries)} reads of each, interleaved in a ` +
      'shuffled order in one process (another caller and a never-issued id must not be told apart)',
    table(
      ['path', '<id', 'median ms', 'p90 ms', '<answer'],
      e.rows.map((r) => [r.path, r.kind, r.medianMs.toFixed(3), r.p90Ms.toFixed(3), r.answer]),
    ),
    '',
  ];
}

/** 11. Asking mid-call: answer-to-result latency, reads while waiting, and the cost of 1,000 asks. */
export function asksLines(results: BenchResults): string[] {
  if (!results.asks) return [];
  return [
    `11. Asking (streaming API): one mid-call question, the call waiting on one instance and the answer POSTed to ` +
      `another, sharing a local DynamoDB; answer POST sent -> the call's result received, ` +
      `${n(results.settings.asks ?? 0)} asks per row; reads counted while a call waits 3 s; cost of 1,000 asks ` +
      `waiting ${ASSUMED_WAIT_S} s each (DynamoDB on-demand: 3 writes per ask plus the reads; Lambda: 1 GB waiting)`,
    table(
      [
        'poll interval ms',
        'p50 ms',
        'p95 ms',
        'reads per waited s',
        'DynamoDB $/1k asks',
        'Lambda $/1k asks',
      ],
      results.asks.map((r) => [
        String(r.pollIntervalMs),
        String(r.p50Ms),
        String(r.p95Ms),
        String(r.readsPerWaitedSecond),
        r.dynamoUsdPer1000Asks.toFixed(4),
        r.lambdaUsdPer1000Asks.toFixed(3),
      ]),
    ),
    '',
  ];
}

/** 11b. Resuming a cut stream: the answer's delay through the log, and the reads it takes. */
export function resumesLines(results: BenchResults): string[] {
  if (!results.resumes) return [];
  return [
    `11b. Streams that survive a cut (streaming API): a tool cuts its stream on one instance and answers 100 to ` +
      `600 ms later; the client resumes at once with GET and Last-Event-ID on another, sharing a local DynamoDB; the ` +
      `tool's answer -> its arrival on the resumed stream, ${n(results.settings.resumes ?? 0)} resumes per row; ` +
      `log reads counted on the resuming instance (the cut call writes 2 items: the head and the response)`,
    table(
      ['poll interval ms', 'p50 ms', 'p95 ms', 'reads per resume', 'reads per waited s'],
      results.resumes.map((r) => [
        String(r.pollIntervalMs),
        String(r.p50Ms),
        String(r.p95Ms),
        String(r.readsPerResume),
        String(r.readsPerWaitedSecond),
      ]),
    ),
    '',
  ];
}

/** 12. The views' sizes beside the SDK App class, their reads, and the time to their first painted page. */
export function viewsLines(results: BenchResults): string[] {
  const v = results.views;
  if (!v) return [];
  const out = [
    '12. Views (MCP Apps): each built document, and the smallest view on the SDK App class for comparison',
    table(
      ['view', 'KB', 'gzip KB'],
      [...v.sizes, v.appClass].map((s) => [s.name, kb(s.bytes), kb(s.gzipBytes)]),
    ),
    '   resources/read of each view from the bundled MCP function: the first read (it loads the view) and warm reads',
    table(
      ['view', 'first ms', 'warm p50 ms', 'warm p99 ms'],
      v.reads.map((r) => [r.name, r.firstMs.toFixed(1), r.warmP50Ms.toFixed(2), r.warmP99Ms.toFixed(2)]),
    ),
  ];
  if ('skipped' in v.paints) out.push(`   tool result to first painted page: skipped, ${v.paints.skipped}`);
  else
    out.push(
      '   tool result to first painted page in headless Chromium (local view host, bundled functions, local S3)',
      table(
        ['view', 'runs', 'p50 ms', 'max ms'],
        v.paints.map((p) => [p.name, String(p.runs), p.p50Ms.toFixed(0), p.maxMs.toFixed(0)]),
      ),
    );
  out.push('');
  return out;
}
