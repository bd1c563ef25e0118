/** The targets of issues 21 and 23 (views, what a model is handed, refused reads), judged as targets.ts judges. */
import type { ExistenceResult } from './existence.ts';
import type { ModelBytesResult } from './model-bytes.ts';
import type { TargetCheck } from './results.ts';
import type { ViewsResult } from './views.ts';

/** Issue 21: each view's document at most this many bytes gzip. */
const VIEW_GZIP_LIMIT_BYTES = 100 * 1024;
/** Issue 21: from the tool result to the view's first painted page, at the median, in ms. */
const VIEW_PAINT_LIMIT_MS = 500;

/** Issue 23: read_output's definition in tools/list, bytes (sent with every model call). */
export const READ_OUTPUT_DEFINITION_LIMIT_BYTES = 1_500;
/** Issue 23: a read_output page through LangChain at most this share larger than through the AI SDK. */
export const FRAMEWORK_PAGE_SPREAD = 0.1;

const pct = (n: number) => `${Math.round(n * 100)}%`;

/** Issue 23: read_output's definition stays small, and a page costs about the same through each framework. */
export function modelBytesChecks(result: ModelBytesResult): TargetCheck[] {
  const definition = result.toolsList.readOutputBytes;
  const spread = result.page.LangChain / result.page['AI SDK'] - 1;
  return [
    {
      name: 'read_output definition in tools/list',
      goal: `<= ${READ_OUTPUT_DEFINITION_LIMIT_BYTES.toLocaleString('en-US')} bytes`,
      measured: `${definition.toLocaleString('en-US')} bytes`,
      met: definition <= READ_OUTPUT_DEFINITION_LIMIT_BYTES,
      exact: true,
    },
    {
      name: 'a read_output page, LangChain vs AI SDK',
      goal: `<= +${pct(FRAMEWORK_PAGE_SPREAD)}`,
      measured: `${spread >= 0 ? '+' : ''}${(spread * 100).toFixed(1)}%`,
      met: spread <= FRAMEWORK_PAGE_SPREAD,
      exact: true,
    },
  ];
}

/** Issue 23: another caller's link and a never-issued id take the same time: 0 within the interval of their gap. */
export function existenceChecks(result: ExistenceResult): TargetCheck[] {
  return result.gaps.map((g) => ({
    name: `${g.path}: another caller's link vs a never-issued id`,
    goal: 'indistinguishable (95% interval holds 0)',
    measured: `${g.differenceMs >= 0 ? '+' : ''}${g.differenceMs.toFixed(3)} ms (${g.lowMs.toFixed(3)} to ${g.highMs.toFixed(3)})`,
    met: g.lowMs <= 0 && g.highMs >= 0,
  }));
}

/** Issue 21: every view small enough, and quick to show its first page after the result. */
export function viewChecks(views: ViewsResult): TargetCheck[] {
  const largest = views.sizes.reduce((a, b) => (b.gzipBytes > a.gzipBytes ? b : a));
  const checks: TargetCheck[] = [
    {
      name: 'View size (gzip, largest view)',
      goal: `<= ${VIEW_GZIP_LIMIT_BYTES / 1024} KB`,
      measured: `${(largest.gzipBytes / 1024).toFixed(1)} KB (${largest.name})`,
      met: largest.gzipBytes <= VIEW_GZIP_LIMIT_BYTES,
      exact: true,
    },
  ];
  if (!('skipped' in views.paints) && views.paints.length) {
    const slowest = views.paints.reduce((a, b) => (b.p50Ms > a.p50Ms ? b : a));
    checks.push({
      name: 'Tool result to first painted page (p50, slowest view)',
      goal: `<= ${VIEW_PAINT_LIMIT_MS} ms`,
      measured: `${slowest.p50Ms.toFixed(0)} ms (${slowest.name})`,
      met: slowest.p50Ms <= VIEW_PAINT_LIMIT_MS,
    });
  }
  return checks;
}
