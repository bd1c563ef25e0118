/**
 * A load scenario as the run uses it: the file's flows of MCP steps (scenario.schema.json), read and checked by
 * parse.ts, with every default filled in.
 */
import type { LoadEra } from '../mcp-request.ts';
import type { LoadModel } from '../options-model.ts';
import type { ReportFile } from '../option-values.ts';
import type { StackOption } from '../stack/side.ts';

/** Milliseconds to wait after a step: fixed, or random from `minMs` to `maxMs`. */
export interface Think {
  minMs: number;
  maxMs: number;
}

/** Where a call's arguments come from: one object, or a list picked from in turn or at random. */
export type ArgumentSource =
  | { kind: 'fixed'; value: Record<string, unknown> }
  | { kind: 'list'; values: Record<string, unknown>[]; pick: 'round-robin' | 'random' };

interface StepBase {
  /** The step's label in the report: the file's `name`, else its kind (and tool). */
  label: string;
  think?: Think;
}

/** A step that calls a tool. */
interface CallBase extends StepBase {
  tool: string;
  args: ArgumentSource;
}

/** One step of a flow. */
export type Step =
  | (StepBase & { kind: 'tools/list' })
  | (CallBase & { kind: 'tools/call' })
  | (StepBase & { kind: 'read_output'; pages: number; count?: number })
  | (CallBase & { kind: 'task'; pollMs?: number; timeoutS: number })
  | (CallBase & {
      kind: 'ask';
      /** The response to a question `answers` has none for. */
      answer?: Record<string, unknown>;
      /** Responses by `inputRequests` key. */
      answers: Record<string, Record<string, unknown>>;
      capabilities: Record<string, unknown>;
      maxRounds: number;
    });

export type StepKind = Step['kind'];

/** A sequence of steps, run again and again by the load; `weight` is its share of the runs. */
export interface Flow {
  name: string;
  weight: number;
  era: LoadEra;
  steps: Step[];
}

/** How the run authenticates: a bearer token, read once before the run. */
export type Auth =
  | { type: 'file'; path: string }
  | { type: 'command'; command: string }
  | {
      type: 'client-credentials';
      tokenUrl: string;
      clientId: string;
      secretEnv: string;
      scope?: string;
      clientAuth: 'basic' | 'post';
    };

/** A checked scenario file. */
export interface Scenario {
  /** The file's `name`, else its file name. */
  name: string;
  /** The path it was read from. */
  file: string;
  url?: string;
  era: LoadEra;
  /** The file's model, when it gives one. */
  load?: Omit<LoadModel, 'notices'>;
  auth?: Auth;
  headers: Record<string, string>;
  flows: Flow[];
}

/** Everything a scenario run needs, validated: the scenario, its model, and the command line's settings. */
export interface ScenarioOptions extends Omit<LoadModel, 'notices'> {
  /** The MCP endpoint: --url, else the scenario's `url`. */
  url: string;
  scenario: Scenario;
  /** --token: a bearer token in place of the scenario's `auth`. */
  token?: string;
  /** --header values, over the scenario's `headers` (lower-case names). */
  headers: Record<string, string>;
  /** Seconds to wait for one response. */
  timeoutS: number;
  json: boolean;
  /** An HTML report file. */
  report?: ReportFile;
  /** The deployed stack behind `url`: its limits before the run, its Lambda side from CloudWatch after it. */
  stack?: StackOption;
}
