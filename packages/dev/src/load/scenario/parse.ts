/**
 * Reads a scenario file: JSON, checked against its schema (schema.ts), then for what a schema cannot say (an ask
 * or a task in the handshake era, a template that is not one, a model that mixes the closed and the open). Every
 * problem is one UsageError naming the file and the path of the bad field.
 */
import { readFileSync } from 'node:fs';
import { basename } from 'node:path';
import type { LoadEra } from '../mcp-request.ts';
import { HEADER_NAME, managedHeader, quote, UsageError } from '../option-values.ts';
import { scenarioModel, type LoadValues } from './model.ts';
import { schemaProblem } from './schema.ts';
import { expand } from './template.ts';
import type { ArgumentSource, Auth, Flow, Scenario, Step, Think } from './types.ts';

/** A step as the file writes it (the schema has checked each field's type). */
interface RawStep {
  kind: Step['kind'];
  name?: string;
  think?: number | { min: number; max: number };
  tool?: string;
  arguments?: Record<string, unknown>;
  argumentsList?: Record<string, unknown>[];
  pick?: 'round-robin' | 'random';
  pages?: number;
  count?: number;
  pollMs?: number;
  timeoutS?: number;
  answer?: Record<string, unknown>;
  answers?: Record<string, Record<string, unknown>>;
  capabilities?: Record<string, unknown>;
  maxRounds?: number;
}

interface RawFlow {
  name: string;
  weight?: number;
  era?: LoadEra;
  steps: RawStep[];
}

interface RawScenario {
  name?: string;
  url?: string;
  era: LoadEra;
  load?: LoadValues;
  auth?: RawAuth;
  headers?: Record<string, string>;
  flows: RawFlow[];
}

type Grant = Extract<Auth, { type: 'client-credentials' }>;
/** An auth as the file writes it: a client credentials grant may leave out how the client authenticates. */
type RawAuth = Exclude<Auth, Grant> | (Omit<Grant, 'clientAuth'> & { clientAuth?: Grant['clientAuth'] });

const authOf = (raw: RawAuth): Auth =>
  raw.type === 'client-credentials' ? { ...raw, clientAuth: raw.clientAuth ?? 'basic' } : raw;

/** A problem at a path of the file. */
class Problem extends Error {}

/** Checks every template in `value`, naming the path of the first that is not one. */
function checkTemplates(value: unknown, path: string): void {
  if (typeof value === 'string') {
    try {
      expand(value);
    } catch (error) {
      throw new Problem(`${path}: ${(error as Error).message}`);
    }
  } else if (typeof value === 'object' && value !== null) {
    for (const [key, item] of Object.entries(value)) checkTemplates(item, `${path}/${key}`);
  }
}

function argumentsOf(raw: RawStep, at: string): ArgumentSource {
  if (raw.arguments !== undefined && raw.argumentsList !== undefined)
    throw new Problem(`${at}: arguments and argumentsList both give the arguments: give one`);
  if (raw.pick !== undefined && raw.argumentsList === undefined)
    throw new Problem(`${at}/pick: picks from argumentsList: give argumentsList with it`);
  if (raw.argumentsList !== undefined) {
    checkTemplates(raw.argumentsList, `${at}/argumentsList`);
    return { kind: 'list', values: raw.argumentsList, pick: raw.pick ?? 'round-robin' };
  }
  checkTemplates(raw.arguments ?? {}, `${at}/arguments`);
  return { kind: 'fixed', value: raw.arguments ?? {} };
}

function thinkOf(raw: RawStep, at: string): Think | undefined {
  if (raw.think === undefined) return undefined;
  if (typeof raw.think === 'number') return { minMs: raw.think, maxMs: raw.think };
  if (raw.think.min > raw.think.max) throw new Problem(`${at}/think: min is above max`);
  return { minMs: raw.think.min, maxMs: raw.think.max };
}

/** One step, with its defaults. */
function stepOf(raw: RawStep, at: string, era: LoadEra, first: boolean): Step {
  const think = thinkOf(raw, at);
  const base = { ...(think ? { think } : {}) };
  const label = (fallback: string) => raw.name ?? fallback;
  if ((raw.kind === 'task' || raw.kind === 'ask') && era !== 'stateless')
    throw new Problem(
      `${at}: ${raw.kind === 'ask' ? 'an ask' : 'a task'} step speaks 2026-07-28: give its flow the stateless era`,
    );
  switch (raw.kind) {
    case 'tools/list':
      return { kind: raw.kind, label: label('tools/list'), ...base };
    case 'read_output':
      if (first)
        throw new Problem(
          `${at}: read_output follows the resource_link of an earlier step: not a first step`,
        );
      return {
        kind: raw.kind,
        label: label('read_output'),
        pages: raw.pages ?? 1,
        ...(raw.count !== undefined ? { count: raw.count } : {}),
        ...base,
      };
    case 'tools/call':
      return { kind: raw.kind, label: label(`tools/call ${raw.tool}`), ...call(raw, at), ...base };
    case 'task':
      return {
        kind: raw.kind,
        label: label(`task ${raw.tool}`),
        ...call(raw, at),
        ...(raw.pollMs !== undefined ? { pollMs: raw.pollMs } : {}),
        timeoutS: raw.timeoutS ?? 120,
        ...base,
      };
    case 'ask':
      checkTemplates(raw.answer ?? {}, `${at}/answer`);
      checkTemplates(raw.answers ?? {}, `${at}/answers`);
      return {
        kind: raw.kind,
        label: label(`ask ${raw.tool}`),
        ...call(raw, at),
        ...(raw.answer !== undefined ? { answer: raw.answer } : {}),
        answers: raw.answers ?? {},
        capabilities: raw.capabilities ?? { elicitation: { form: {} } },
        maxRounds: raw.maxRounds ?? 5,
        ...base,
      };
  }
}

const call = (raw: RawStep, at: string) => ({ tool: raw.tool!, args: argumentsOf(raw, at) });

function flowOf(raw: RawFlow, index: number, era: LoadEra): Flow {
  const flowEra = raw.era ?? era;
  return {
    name: raw.name,
    weight: raw.weight ?? 1,
    era: flowEra,
    steps: raw.steps.map((step, i) => stepOf(step, `/flows/${index}/steps/${i}`, flowEra, i === 0)),
  };
}

/** The file's extra headers, lower-case, each one the command lets its user set. */
function headersOf(raw: RawScenario): Record<string, string> {
  const headers: Record<string, string> = {};
  for (const [name, value] of Object.entries(raw.headers ?? {})) {
    const managed = HEADER_NAME.test(name) ? managedHeader(name) : 'not a header name';
    if (managed !== undefined) throw new Problem(`/headers/${name}: cannot be set: ${managed}`);
    if (name.toLowerCase() === 'authorization' && raw.auth !== undefined)
      throw new Problem(`/headers/${name}: auth sets the Authorization header: give one`);
    headers[name.toLowerCase()] = value;
  }
  return headers;
}

/** The checked scenario of a parsed file; throws a Problem (or an Error from the model) with the path. */
function scenarioOf(raw: RawScenario, file: string): Scenario {
  const names = new Set<string>();
  raw.flows.forEach((flow, i) => {
    if (names.has(flow.name))
      throw new Problem(`/flows/${i}/name: another flow is named ${quote(flow.name)}`);
    names.add(flow.name);
  });
  if (raw.url !== undefined && !URL.canParse(raw.url))
    throw new Problem(`/url: not a URL (got ${quote(raw.url)})`);
  return {
    name: raw.name ?? basename(file),
    file,
    ...(raw.url !== undefined ? { url: raw.url } : {}),
    era: raw.era,
    ...(raw.load !== undefined ? { load: scenarioModel(raw.load) } : {}),
    ...(raw.auth !== undefined ? { auth: authOf(raw.auth) } : {}),
    headers: headersOf(raw),
    flows: raw.flows.map((flow, i) => flowOf(flow, i, raw.era)),
  };
}

/** Reads and checks the scenario file at `path`; every problem is a UsageError naming the file and the field. */
export function readScenario(path: string): Scenario {
  let text: string;
  try {
    text = readFileSync(path, 'utf8');
  } catch (error) {
    const code = (error as { code?: string }).code ?? (error as Error).message;
    throw new UsageError(`--scenario: cannot read ${path} (${code})`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new UsageError(`--scenario ${path} is not JSON: ${(error as Error).message}`);
  }
  const problem = schemaProblem(raw);
  if (problem !== undefined) throw new UsageError(`--scenario ${path}: ${problem}`);
  try {
    return scenarioOf(raw as RawScenario, path);
  } catch (error) {
    throw new UsageError(`--scenario ${path}: ${(error as Error).message}`);
  }
}
