/**
 * What each kind of step sends and how its answers are checked. A step ends as one kind (samples.ts): `ok` or
 * `tool-error` (an `isError` result, still an MCP answer) when every request it sent got what it needed, else the
 * kind of the first failure; the requests it sent are counted. `read_output`, a task and an ask send several.
 */
import { randomInt } from 'node:crypto';
import { setTimeout as sleep } from 'node:timers/promises';
import { classifyResult } from '../classify.ts';
import type { Kind } from '../samples.ts';
import type { FlowClient, Failure } from './client.ts';
import { TASKS_EXTENSION } from './client.ts';
import { expand, type TemplateContext } from './template.ts';
import type { Step } from './types.ts';

/** How a step ended. */
export interface StepEnd {
  kind: Kind;
  detail?: string;
}

/** A flow run as its steps see it: its client, its number, and the last resource_link a step received. */
export interface FlowRun extends TemplateContext {
  client: FlowClient;
}

/** Per step, the next item of a round-robin `argumentsList` (shared by every flow run of the load). */
export type Turns = Map<Step, number>;

type CallStep = Extract<Step, { tool: string }>;

const isObject = (v: unknown): v is Record<string, unknown> =>
  typeof v === 'object' && v !== null && !Array.isArray(v);

const failed = (failure: Failure): StepEnd => failure;

/** The arguments of a call, picked and expanded for this flow run. */
function argumentsFor(step: CallStep, run: FlowRun, turns: Turns): Record<string, unknown> {
  const source = step.args;
  let args = source.kind === 'fixed' ? source.value : undefined;
  if (source.kind === 'list') {
    const turn = turns.get(step) ?? 0;
    turns.set(step, turn + 1);
    const i = source.pick === 'random' ? randomInt(source.values.length) : turn % source.values.length;
    args = source.values[i];
  }
  return expand(args, run) as Record<string, unknown>;
}

/** Keeps the first resource_link of a result (the first part of an output stored in parts), for `read_output` and `{{link}}`. */
function noteLink(run: FlowRun, result: Record<string, unknown>): void {
  const content = Array.isArray(result.content) ? (result.content as unknown[]) : [];
  const link = content.find((b) => isObject(b) && b.type === 'resource_link' && typeof b.uri === 'string');
  if (link) run.link = (link as { uri: string }).uri;
}

/** The end of a step whose last answer is a `CallToolResult`. */
function ended(run: FlowRun, result: Record<string, unknown>): StepEnd {
  const { outcome, detail } = classifyResult(result);
  if (outcome === 'ok' || outcome === 'tool-error') noteLink(run, result);
  return { kind: outcome, ...(detail !== undefined ? { detail } : {}) };
}

/** Where the next page starts, from a page's structured content; undefined on the last page. */
function nextPosition(page: Record<string, unknown>): Record<string, unknown> | undefined {
  const structured = isObject(page.structuredContent) ? page.structuredContent : {};
  const json = isObject(structured.json) ? structured.json : {};
  const csv = isObject(structured.csv) ? structured.csv : {};
  if (typeof structured.nextOffset === 'number') return { offset: structured.nextOffset };
  if (typeof structured.nextLine === 'number') return { line: structured.nextLine };
  if (typeof csv.nextRow === 'number') return { row: csv.nextRow };
  if (typeof json.nextItem === 'number') return { pointer: json.pointer, item: json.nextItem };
  return undefined;
}

/** Reads up to `pages` pages of the last link with the read_output tool, each from where the last one ended. */
async function readOutput(step: Extract<Step, { kind: 'read_output' }>, run: FlowRun): Promise<StepEnd> {
  const uri = run.link;
  if (uri === undefined)
    return { kind: 'malformed', detail: 'no step of this flow run has received a resource_link to read' };
  let position: Record<string, unknown> | undefined = {};
  for (let page = 0; page < step.pages && position !== undefined; page++) {
    const args = { uri, ...position, ...(step.count !== undefined ? { count: step.count } : {}) };
    const reply = await run.client.call('read_output', args);
    if ('failure' in reply) return failed(reply.failure);
    const { outcome, detail } = classifyResult(reply.result);
    if (outcome !== 'ok') return { kind: outcome, ...(detail !== undefined ? { detail } : {}) };
    position = nextPosition(reply.result);
  }
  return { kind: 'ok' };
}

/** Calls a tool as a task (declaring the extension) and polls `tasks/get` until the task ends. */
async function task(step: Extract<Step, { kind: 'task' }>, run: FlowRun, turns: Turns): Promise<StepEnd> {
  const capabilities = { extensions: { [TASKS_EXTENSION]: {} } };
  const reply = await run.client.call(step.tool, argumentsFor(step, run, turns), capabilities);
  if ('failure' in reply) return failed(reply.failure);
  // A run done within the tool's `afterMs` answers as an ordinary call would.
  if (reply.result.resultType !== 'task') return ended(run, reply.result);
  const taskId = String(reply.result.taskId);
  const deadline = performance.now() + step.timeoutS * 1000;
  let pollMs = step.pollMs ?? Number(reply.result.pollIntervalMs ?? 1000);
  for (;;) {
    if (performance.now() + pollMs > deadline)
      return { kind: 'timeout', detail: `the task did not end within ${step.timeoutS} s` };
    await sleep(Math.max(10, pollMs));
    const polled = await run.client.request('tasks/get', { taskId }, taskId);
    if ('failure' in polled) return failed(polled.failure);
    const { status, result, error } = polled.result;
    if (status === 'completed' && isObject(result)) return ended(run, result);
    if (status === 'failed') {
      const why = isObject(error) ? `${String(error.code)} ${String(error.message)}` : 'no error given';
      return { kind: 'rpc-error', detail: `the task failed: ${why}` };
    }
    if (status !== 'working')
      return {
        kind: 'malformed',
        detail: `the task is ${String(status)}, which a task step does not answer`,
      };
    pollMs = step.pollMs ?? Number(polled.result.pollIntervalMs ?? pollMs);
  }
}

/** The responses to a round's questions, from the step's answers (by key) or its one answer. */
function responsesTo(step: Extract<Step, { kind: 'ask' }>, asked: unknown, run: FlowRun) {
  const responses: Record<string, unknown> = {};
  for (const key of Object.keys(isObject(asked) ? asked : {})) {
    const response = step.answers[key] ?? step.answer;
    if (response === undefined) return key;
    responses[key] = expand(response, run);
  }
  return responses;
}

/** Calls a tool that asks (2026-07-28 `input_required`), answering every round as configured. */
async function ask(step: Extract<Step, { kind: 'ask' }>, run: FlowRun, turns: Turns): Promise<StepEnd> {
  const args = argumentsFor(step, run, turns);
  let reply = await run.client.call(step.tool, args, step.capabilities);
  for (let round = 0; ; round++) {
    if ('failure' in reply) return failed(reply.failure);
    const result = reply.result;
    if (result.resultType !== 'input_required') return ended(run, result);
    if (round === step.maxRounds)
      return { kind: 'malformed', detail: `the call still asks after ${step.maxRounds} rounds (maxRounds)` };
    const responses = responsesTo(step, result.inputRequests, run);
    if (typeof responses === 'string')
      return { kind: 'malformed', detail: `the call asks ${responses}, which the step has no answer for` };
    const extra = {
      inputResponses: responses,
      ...(result.requestState !== undefined ? { requestState: result.requestState } : {}),
    };
    reply = await run.client.call(step.tool, args, step.capabilities, extra);
  }
}

/** Runs one step of a flow run. Never rejects: a scenario problem met only now (`{{link}}`) is `malformed`. */
export async function runStep(step: Step, run: FlowRun, turns: Turns): Promise<StepEnd> {
  try {
    switch (step.kind) {
      case 'tools/list': {
        const reply = await run.client.request('tools/list', {});
        if ('failure' in reply) return failed(reply.failure);
        return Array.isArray(reply.result.tools)
          ? { kind: 'ok' }
          : { kind: 'malformed', detail: 'the tools/list result has no tools array' };
      }
      case 'tools/call': {
        const reply = await run.client.call(step.tool, argumentsFor(step, run, turns));
        return 'failure' in reply ? failed(reply.failure) : ended(run, reply.result);
      }
      case 'read_output':
        return await readOutput(step, run);
      case 'task':
        return await task(step, run, turns);
      case 'ask':
        return await ask(step, run, turns);
    }
  } catch (error) {
    return { kind: 'malformed', detail: (error as Error).message };
  }
}
