/** What `npm run bench` says about itself: its options, and the line it starts with. */

export const USAGE = `Usage: npm run bench -- [options]

A full run measures every part (about 3 minutes on 2 cores); --quick is a short smoke run (about 1 minute) that
checks every part answers, with too few samples to compare figures. A part that fails says why and the others
still run; the exit status is then 1.

  --quick            a short smoke run (3 cold starts, 1 s runs, 10,000 soak calls)
  --runs N           cold-start processes per server                  (default 11)
  --warm-runs N      warm in-process runs per server                  (default 3)
  --connections N    load-command connections for the HTTP runs       (default 16)
  --duration S       seconds per HTTP run                             (default 4)
  --rounds N         HTTP rounds over all servers                     (default 2)
  --soak N           calls in the soak run, 0 to skip                 (default 100000)
  --stream-calls N   calls per mode in the first-streamed-event run   (default 30)
  --id-reads N       reads per kind of id in the existence timing run (default 1000)
  --skip LIST        parts to skip: cold,warm,http,offload,stream,soak,read,tasks,model,existence,asks,resumes,views,tracing
  --only LIST        run only these parts (same names)
  --node PATH        Node binary for the functions                    (default: Node 22, installed once if older)
  --json             print the results as JSON instead of tables`;

/** The hint every failure line ends with. */
export const USAGE_HINT = 'npm run bench -- --help lists every option';

/** The first line of a run: which kind it is, and the other kind's option. */
export function runLine(quick: boolean): string {
  return quick
    ? 'quick run (--quick): a smoke run with few and short samples; drop --quick to compare figures'
    : 'full run: about 3 minutes on 2 cores; npm run bench -- --quick for a 1-minute smoke run, --help for every option';
}
