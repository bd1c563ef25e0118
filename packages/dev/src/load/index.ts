/**
 * `@mcp-lambda/dev/load`: the load test behind `npm run load` (`mcp-lambda-dev load`), as code: MCP requests as a
 * client puts them on the wire, the classification of an answer, the preflight, the run, its bounded recording and
 * its reports. The benchmarks drive the same run, so a figure there and a figure here mean the same thing. A scenario
 * run can also be written as an Artillery test, and the report read back from Artillery's output.
 */
// ## MCP requests on the wire (experimental)
export {
  type LoadEra,
  HANDSHAKE_VERSION,
  STATELESS_VERSION,
  CLIENT_INFO,
  type WireRequest,
  type MirroredParam,
  type RequestOptions,
  encodeHeaderValue,
  baseHeaders,
  rpcRequest,
  rpcNotification,
  toolCallRequest,
  initializeRequest,
  mirroredParams,
} from './mcp-request.ts';
// ## Classifying an answer (experimental)
export { type Outcome, type Classified, messagesOf, classify } from './classify.ts';
// ## The command line (experimental)
export {
  type LoadOptions,
  type ReportFile,
  type ParsedCommand,
  type ArtilleryCommand,
  USAGE,
  UsageError,
  parseLoadArgs,
} from './options.ts';
// ## A load run and its report (experimental)
export { PreflightError, type Prepared, prepare } from './preflight.ts';
export {
  type Latency,
  type LoadReport,
  type OpenFigures,
  type ScheduleFigures,
  type OpenRun,
  type RunTarget,
  fire,
  summarize,
  runLoad,
} from './run.ts';
export { type Arrivals } from './open-run.ts';
export { type Phase, type OpenPlan, Schedule, formatPhases, describePhases } from './schedule.ts';
export { type Kind, KINDS, RunRecorder } from './samples.ts';
export { type RecordedRun } from './report-charts.ts';
export { formatReport } from './report-text.ts';
export { renderHtmlReport } from './report-html.ts';
export { renderSvgReport } from './report-svg.ts';
// ## The endpoint's side: a deployed stack's limits, and its Lambda side from CloudWatch (experimental)
export { StackSide, type StackOption, type StackReport } from './stack/side.ts';
export { AwsReadError, type AwsClients, type Sender } from './stack/aws.ts';
export { type StackApi } from './stack/resolve.ts';
export { type EndpointLimits, type Throttle, type Concurrency, type Offered } from './stack/limits.ts';
export {
  type LambdaSide,
  type LambdaMetrics,
  type InitDurations,
  type RunWindow,
  type Waiting,
} from './stack/lambda-side.ts';
// ## Scenarios: weighted flows of MCP steps (experimental)
export {
  type Scenario,
  type ScenarioOptions,
  type Flow,
  type Step as ScenarioStep,
  type StepKind,
  type Think,
  type ArgumentSource,
  type Auth,
} from './scenario/types.ts';
export { readScenario } from './scenario/parse.ts';
export { scenarioSchema } from './scenario/schema.ts';
export { runScenario } from './scenario/run.ts';
export { FlowPicker } from './scenario/loop.ts';
export {
  ScenarioRecording,
  type StepRecording,
  type FlowRecording,
  type FlowLog,
} from './scenario/recording.ts';
export {
  type Figures,
  type StepFigures,
  type FlowFigures,
  type ScenarioArrivals,
  type ScenarioReport,
  summarizeScenario,
} from './scenario/report.ts';
export { formatScenarioReport } from './scenario/report-text.ts';
export { type RecordedScenario, renderScenarioHtml } from './scenario/report-html.ts';
// ## Scenarios on Artillery (experimental)
export { type Emitted, emitArtillery } from './artillery/emit.ts';
export {
  type ArtilleryReport,
  type ArtilleryPeriod,
  type VirtualUsers,
  type ArtilleryOutput,
  type ArtilleryMetrics,
  readArtilleryOutput,
  artilleryReport,
} from './artillery/results.ts';
export { formatArtilleryReport } from './artillery/report-text.ts';
export { renderArtilleryHtml } from './artillery/report-html.ts';
