/** Prints a benchmark run as plain-text tables with ratios (what `npm run bench` shows and BENCHMARKS.md quotes). */
import type { BundleInfo } from './bundle.ts';
import { costLines, offloadLines, readOutputLines, soakLines } from './format-capacity.ts';
import { coldStartLines, httpLines, streamLines, tasksLines, warmLines } from './format-latency.ts';
import { asksLines, existenceLines, modelBytesLines, resumesLines, viewsLines } from './format-features.ts';
import type { BenchResults, TargetCheck } from './results.ts';
import { kb, table } from './table.ts';
import { tracingLines } from './tracing.ts';

export { table } from './table.ts';

function partsSummary(bundle: Omit<BundleInfo, 'file'>, count: number): string {
  const top = bundle.parts.slice(0, count).map((p) => `${p.name} ${kb(p.bytes)}`);
  const rest = bundle.parts.slice(count).reduce((sum, p) => sum + p.bytes, 0);
  return [...top, ...(rest > 0 ? [`other ${kb(rest)}`] : [])].join(' · ');
}

/** The report's sections in the order it prints them; a new bench row adds its own here. */
const SECTIONS: readonly ((results: BenchResults) => string[])[] = [
  coldStartLines,
  warmLines,
  httpLines,
  offloadLines,
  costLines,
  streamLines,
  soakLines,
  readOutputLines,
  tasksLines,
  modelBytesLines,
  existenceLines,
  asksLines,
  resumesLines,
  viewsLines,
  tracingLines,
];

/** What a quick run says of a missed target measured on samples: not a failure, a figure it cannot judge. */
const NOT_COMPARABLE = 'not comparable (--quick)';
const QUICK_NOTE =
  '   not comparable (--quick): a quick run measures times, rates and memory on too few samples to compare them ' +
  'with the goals; exact figures (sizes, counts, errors) are judged as in a full run. Drop --quick to judge them all.';

/** A target's result column. */
function verdict(t: TargetCheck, quick: boolean): string {
  if (t.information) return 'information';
  if (t.met === undefined) return 'not run';
  if (t.met) return 'met';
  return quick && !t.exact ? NOT_COMPARABLE : 'MISSED';
}

/** The parts that failed, each with its message, last so the run's end shows them. */
function failedPartsLines(results: BenchResults): string[] {
  const failed = results.failedParts ?? [];
  if (failed.length === 0) return [];
  return [
    '',
    `Parts that failed (${failed.length}; the others ran, and the exit status is 1)`,
    ...failed.map((f) => `   ${f.part}: ${f.message}`),
  ];
}

/** The whole report. */
export function formatBench(results: BenchResults): string {
  const m = results.machine;
  const s = results.settings;
  const out: string[] = [
    `npm run bench — ${results.date}`,
    `machine: ${m.cpu}, ${m.cores} cores, ${m.memoryGiB} GiB, ${m.os}`,
    `functions on Node ${m.functionNode} (${s.execArgv.join(' ') || 'no flags'}), load generator on Node ${m.driverNode}`,
    `load average (1 min): ${m.loadStart} at start, ${m.loadEnd ?? '?'} at end; ${results.durationS.toFixed(0)} s in all`,
    '',
  ];

  out.push(
    'Bundles (esbuild with the stack options: minified ESM split into chunks, @aws-sdk/* external); KB = 1,024 bytes',
  );
  out.push(
    table(
      [
        'function',
        'load KB',
        'all KB',
        'lazy chunks',
        'gzip KB',
        '<what loads at cold start (KB in the minified output)',
      ],
      results.bundles.map((b) => [
        b.label,
        kb(b.bytes),
        kb(b.totalBytes),
        String(b.lazyChunks),
        kb(b.gzipBytes),
        partsSummary(b, 4),
      ]),
    ),
  );
  out.push(
    '   (load KB = index.mjs and the chunks it imports statically, what a cold start reads; all KB = every chunk deployed; gzip of all)',
  );
  out.push('');

  for (const section of SECTIONS) out.push(...section(results));
  out.push('Targets (issues 5, 10, 14, 21, 22, 23 and 29)');
  out.push(
    table(
      ['target', '<goal', '<measured', '<result'],
      results.targets.map((t) => [t.name, t.goal, t.measured, verdict(t, s.quick === true)]),
    ),
  );
  for (const t of results.targets) if (t.note) out.push(`   ${t.name}: ${t.note}`);
  if (s.quick && results.targets.some((t) => verdict(t, true) === NOT_COMPARABLE)) out.push(QUICK_NOTE);
  out.push(...failedPartsLines(results));
  return out.join('\n');
}
