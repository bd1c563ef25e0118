/**
 * Warm throughput probe: loads a bundled function and calls its handler back to back, one invocation at a time as
 * Lambda does, for a fixed time. Usage: node child-warm.mjs BUNDLE SPEC_JSON
 */
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
// The classifier's own module, not the load face: a probe carries only what it runs, so the face's other code
// (reports, scenarios, the Artillery processor) neither weighs on the process it times nor moves its figures.
import { classify } from '../../../packages/dev/src/load/classify.ts';
import { apiGatewayEvent, lambdaContext, type BenchHandler } from '../lambda-event.ts';
import type { ProbeSpec, WarmReport } from './protocol.ts';

/** Every n-th timed answer is parsed and checked; parsing every one would measure the checker. */
const CHECK_EVERY = 64;

const [bundle, specJson] = process.argv.slice(2);
const spec = JSON.parse(specJson!) as ProbeSpec;
const { handler } = (await import(pathToFileURL(bundle!).href)) as { handler: BenchHandler };
const event = apiGatewayEvent(spec.request);
let failures = 0;
let checked = 0;
let detail: string | undefined;

const call = async (check: boolean) => {
  const result = (await handler(event, lambdaContext())) as APIGatewayProxyStructuredResultV2;
  if (result.statusCode !== 200) {
    failures++;
    detail ??= `HTTP ${result.statusCode}`;
  } else if (check) {
    checked++;
    const answer = classify(200, String(result.headers?.['content-type'] ?? ''), result.body ?? '');
    if (answer.outcome !== 'ok') {
      failures++;
      detail ??= answer.detail ?? answer.outcome;
    }
  }
};

for (let i = 0; i < (spec.warmupCalls ?? 500); i++) await call(true);
const durationMs = spec.durationMs ?? 3000;
const start = performance.now();
let calls = 0;
let elapsedMs = 0;
while (elapsedMs < durationMs) {
  for (let i = 0; i < CHECK_EVERY; i++) await call(i === 0);
  calls += CHECK_EVERY;
  elapsedMs = performance.now() - start;
}
const report: WarmReport = { calls, elapsedMs, failures, checked, ...(detail ? { detail } : {}) };
writeSync(3, JSON.stringify(report));
process.exit(0);
