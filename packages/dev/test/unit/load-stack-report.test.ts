import { describe, expect, it } from 'vitest';
import { formatReport } from '../../src/load/report-text.ts';
import { renderHtmlReport } from '../../src/load/report-html.ts';
import { summarize, type LoadReport } from '../../src/load/run.ts';
import { RunRecorder } from '../../src/load/samples.ts';
import type { LoadOptions } from '../../src/load/options.ts';
import type { StackReport } from '../../src/load/stack/side.ts';
import { accessDenied } from './aws-stub.ts';
import { cloud, stackSide } from './stack-cloud.ts';

/**
 * The endpoint's side in the reports of a single-tool run: lines of the text report (the verdict still last) and
 * panels of the HTML page, with the warnings and what could not be read.
 */

const STACK_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/live/mcp';

const OPTIONS: LoadOptions = {
  url: STACK_URL,
  tool: 'ping',
  args: {},
  connections: 1,
  durationS: 1,
  headers: {},
  era: 'handshake',
  initialize: false,
  timeoutS: 5,
  json: false,
};

describe('the reports with the endpoint’s side', () => {
  /** A small recorded run with the stack's side added, as the command adds it. */
  async function recorded(): Promise<{ report: LoadReport; recorder: RunRecorder; stack: StackReport }> {
    const stack = await stackSide(cloud().clients);
    const recorder = new RunRecorder();
    recorder.start();
    for (let i = 0; i < 5; i++) recorder.record(10 * i, 'ok', 30);
    const report = summarize(recorder, {
      url: STACK_URL,
      tool: 'ping',
      era: 'handshake',
      protocolVersion: '2025-11-25',
      connections: 1,
    });
    return { report: { ...report, stack }, recorder, stack };
  }

  it('adds the limits, the warnings and the Lambda side to the text report', async () => {
    const { report } = await recorded();
    const text = formatReport(report);
    expect(text).toContain('  Endpoint side: stack McpServer (eu-west-1)');
    expect(text).toContain(
      '  function      McpServer-McpMcpFunctionBFAF0890-abcdef; HTTP API abc123, stage live',
    );
    expect(text).toContain('  throttle      50 req/s, bursts 100 (the stage)');
    expect(text).toContain("  concurrency   no reservation: the account's 1,000 unreserved of 1,000");
    expect(text).toContain('  Lambda side: CloudWatch, one 2-minute period, 2025-06-01 12:00 to 12:02 UTC');
    expect(text).toContain('  invocations   500, 2 errors, 0 throttles; at most 12 concurrent executions');
    expect(text).toContain('  duration ms   p50 35.12  p90 61  p99 120.5  max 300');
    expect(text).toContain('  cold starts   3, init ms p50 412.5  max 530.13 (REPORT lines, Logs Insights)');
    // The verdict stays the last line.
    expect(text.split('\n').at(-1)).toMatch(/^ {2}PASS/);
  });

  it('adds both panels to the HTML page, their numbers in data attributes', async () => {
    const { report, recorder } = await recorded();
    const html = renderHtmlReport({ options: OPTIONS, report, recorder });
    expect(html).toContain(
      '<section class="panel" id="endpoint-side"><h2>Endpoint side: stack McpServer (eu-west-1)</h2>',
    );
    expect(html).toContain('<td class="num" data-metric="throttle" data-value="50">');
    expect(html).toContain('<section class="panel" id="lambda-side">');
    expect(html).toContain('<td class="num" data-metric="lambda-invocations" data-value="500">500</td>');
    expect(html).toContain(
      '<td class="num" data-metric="lambda-init-max" data-value="530.13">530.13 ms</td>',
    );
  });

  it('shows a warning and a part not available in the HTML page too', async () => {
    const { clients } = cloud({
      'cloudWatch.GetMetricDataCommand': () => accessDenied('cloudwatch:GetMetricData'),
    });
    const stack = await stackSide(clients, { peakRate: 200 });
    const { report, recorder } = await recorded();
    const html = renderHtmlReport({ options: OPTIONS, report: { ...report, stack }, recorder });
    expect(html).toMatch(
      /<ul class="warnings"><li>the offered peak of 200 req\/s exceeds the stage throttle/,
    );
    expect(html).toContain('<li>metrics not available: needs cloudwatch:GetMetricData (AccessDenied)</li>');
  });
});
