/** Usage text of `npm run load` (`mcp-lambda-dev load`). */
export const USAGE = `usage: npm run load -- --url URL [options]
       npm run load -- --scenario FILE [--url URL] [options]
       npm run load -- --scenario FILE --emit artillery DIR [--url URL] [options]
       npm run load -- --from-artillery FILE.json --scenario FILE [--url URL] [--json] [--report FILE.html]

Runs a load test of stateless MCP tools/call requests against URL and prints the rate, latency percentiles,
transport errors, non-2xx answers, JSON-RPC errors and isError results. It runs one of two models:

  closed (the default)  --connections connections, each sending its next request when its answer arrived: the
                        most the server answers (its throughput ceiling), while the server sets the pace. Stops
                        after --duration seconds or --amount requests (not both); with --amount below
                        --connections, the connections are lowered to the amount.
  open (--rate, --phases)  requests arrive on a schedule whatever the answers do, each timed from its intended
                        start, so a server that falls behind shows it in the latencies. The report shows the
                        requests scheduled, sent, not sent and answered, and the offered and achieved rates.

With --scenario, the load is the weighted flows a FILE describes (JSON, scenario.schema.json in the dev package),
each a sequence of steps with think times: tools/list, tools/call, read_output pages, a task polled to completion,
an ask answered, in either era. Either model then counts flow runs, and the report shows each step's figures.

With --emit artillery DIR, the scenario run is written as an Artillery test instead of run: DIR gets the script
(artillery.yml), the processor that runs each flow with this command's code (processor.mjs) and the checked
scenario (mcp-load.json). "artillery run" runs it on one machine, "artillery run-lambda" or "run-fargate" on
many; --from-artillery reads its --output JSON into this command's report (docs/performance.md, "On Artillery").

Options:
  --url URL             MCP endpoint (http or https), e.g. http://127.0.0.1:3000/mcp   (required,
                        unless the scenario names one)
  --scenario FILE       run the flows of a scenario file instead of one tool (docs/performance.md,
                        "Scenarios"); --tool, --args, --era, --protocol-version and --initialize
                        are the file's to say, and the model options replace its "load"
  --tool NAME           tool to call                                      (default: ping)
  --args JSON           tool arguments as a JSON object                   (default: {})
  --connections N       closed: concurrent connections, 1-1000            (default: 10)
  --rate R              open: R requests per second, 0-100000 (0 only with --ramp-to)
  --ramp-to R           open: ramp linearly from --rate to R requests per second over --duration
  --phases LIST         open: phases one after another instead of --rate and --duration, each
                        RATExSECONDS or FROM-TOxSECONDS (a linear ramp), e.g. "10x30,10-100x60,100x120"
  --max-in-flight N     open: requests waiting for an answer at most, 1-100000 (default: 1000);
                        a request due while that many wait is not sent, and counted
  --duration S          seconds to run, 1-3600                            (default: 10)
  --amount N            stop after N requests instead of a duration (1-10000000); with --rate,
                        N requests at that rate
  --era ERA             handshake: 2025-era requests; stateless: 2026-07-28 requests with
                        the _meta envelope and Mcp-Method / Mcp-Name headers (default: handshake)
  --protocol-version V  revision to claim                    (default: 2025-11-25 / 2026-07-28)
  --initialize          send initialize (handshake) or server/discover (stateless) once first
  --token T             send "Authorization: Bearer T"
  --header "Name: value"  extra request header (repeatable)
  --timeout S           seconds to wait for one response, 1-120          (default: 10)
  --json                print the report as JSON
  --report FILE         also write a self-contained report with charts: FILE.html (a page)
                        or FILE.svg (an image; not with --scenario)
  --stack NAME          the deployed stack behind URL: before the run, warn where the load exceeds
                        its stage throttle or the function's concurrency; after it, add the Lambda
                        side from CloudWatch (AWS credentials with read access: docs/performance.md)
  --region R            the stack's region             (default: AWS_REGION or the shared config)
  --emit artillery DIR  write the scenario run as an Artillery test into DIR instead of running it
                        (no --token, --json or --report: each worker gets its token from the auth)
  --from-artillery FILE  report the run of an emitted test from its artillery run --output FILE,
                        with the --scenario it was written from
  --help                show this text

Exit status: 0 when every request (with --scenario, every step) got a 2xx JSON-RPC result (isError results
included) and, in the open model, every scheduled request (or flow run) was sent; 1 when any request failed
(transport error, timeout, non-2xx, JSON-RPC error, unreadable answer) or was not sent; 2 on a usage error.
With --from-artillery the same for the run Artillery recorded (and 1 when a virtual user failed or was skipped).`;
