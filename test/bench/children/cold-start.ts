/**
 * Cold-start probe, run in a fresh Node process: loads a bundled function, answers one `tools/call`, and reports
 * when each step finished. Usage: node child-coldStart.mjs BUNDLE SPEC_JSON
 */
import { writeSync } from 'node:fs';
import { pathToFileURL } from 'node:url';
import type { APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
// The classifier's own module, not the load face: a probe carries only what it runs, so the face's other code
// (reports, scenarios, the Artillery processor) neither weighs on the process it times nor moves its figures.
import { classify } from '../../../packages/dev/src/load/classify.ts';
import { apiGatewayEvent, lambdaContext, type BenchHandler } from '../lambda-event.ts';
import type { ColdStartReport, ProbeSpec } from './protocol.ts';

const started = performance.now();
const [bundle, specJson] = process.argv.slice(2);
const spec = JSON.parse(specJson!) as ProbeSpec;
const { handler } = (await import(pathToFileURL(bundle!).href)) as { handler: BenchHandler };
const imported = performance.now();
const result = (await handler(
  apiGatewayEvent(spec.request),
  lambdaContext(),
)) as APIGatewayProxyStructuredResultV2;
const answered = performance.now();
const answer = classify(
  result.statusCode ?? 0,
  String(result.headers?.['content-type'] ?? ''),
  result.body ?? '',
);
const report: ColdStartReport = {
  started,
  imported,
  answered,
  outcome: answer.outcome,
  ...(answer.detail ? { detail: answer.detail } : {}),
};
writeSync(3, JSON.stringify(report));
process.exit(0);
