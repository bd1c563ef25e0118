import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { parseLoadArgs, UsageError } from '../../src/load/options.ts';
import { readScenario } from '../../src/load/scenario/parse.ts';
import { FlowPicker } from '../../src/load/scenario/loop.ts';
import { scenarioSchema } from '../../src/load/scenario/schema.ts';
import { expand } from '../../src/load/scenario/template.ts';

/**
 * Scenario files without a network: the shipped example and schema, the errors a bad file gets (each naming the
 * path of its bad field), the templates, the weighted pick of flows and the command line around a scenario. The
 * runs are in load-scenario-run.test.ts and test/integration/load-scenario.test.ts.
 */

const EXAMPLE = new URL('../../scenarios/agents.json', import.meta.url).pathname;
const folder = mkdtempSync(join(tmpdir(), 'load-scenario-'));
afterAll(() => rmSync(folder, { recursive: true, force: true }));
let files = 0;

/** Writes a scenario (an object, or raw text) to a file of its own and answers its path. */
function file(scenario: unknown): string {
  const path = join(folder, `scenario-${files++}.json`);
  writeFileSync(path, typeof scenario === 'string' ? scenario : JSON.stringify(scenario));
  return path;
}

const ping = { kind: 'tools/call', tool: 'ping' };
const scenario = (overrides: Record<string, unknown> = {}, steps: unknown[] = [ping]) => ({
  era: 'stateless',
  flows: [{ name: 'f', steps }],
  ...overrides,
});

const problem = (value: unknown) => {
  try {
    readScenario(file(value));
  } catch (error) {
    expect(error).toBeInstanceOf(UsageError);
    return (error as Error).message.replace(/^--scenario \S+ ?:? ?/, '');
  }
  throw new Error('the scenario was accepted');
};

describe('the shipped example scenario', () => {
  it('parses with its three flows, their eras and their steps', () => {
    const read = readScenario(EXAMPLE);
    expect(read.name).toBe('agents');
    expect(read.load).toEqual({ connections: 3, durationS: 10, amount: 30 });
    expect(read.flows.map((f) => [f.name, f.era, f.steps.map((s) => s.label)])).toEqual([
      ['list-then-ping', 'handshake', ['tools/list', 'tools/call ping']],
      ['report-then-read', 'stateless', ['tools/call generate_report', 'read_output']],
      ['report-then-delete', 'stateless', ['tools/call generate_report', 'ask delete_output']],
    ]);
    expect(read.flows[2]!.steps[1]).toMatchObject({
      kind: 'ask',
      answer: { action: 'accept', content: { approve: true } },
      capabilities: { elicitation: { form: {} } },
      maxRounds: 5,
    });
  });

  it('names the schema beside it, a draft-07 schema', () => {
    expect(scenarioSchema()).toMatchObject({ $schema: 'http://json-schema.org/draft-07/schema#' });
  });
});

describe('a scenario file that is wrong', () => {
  it.each([
    ['not JSON', '{"era":', /^is not JSON: /],
    ['no flows', { era: 'stateless' }, /^\/: missing field "flows"$/],
    [
      'an unknown era',
      scenario({ era: 'modern' }),
      /^\/era: must be one of handshake, stateless \(got "modern"\)$/,
    ],
    [
      'a misspelt field',
      scenario({}, [{ ...ping, thinks: 3 }]),
      /^\/flows\/0\/steps\/0: unknown field "thinks"$/,
    ],
    [
      'an unknown step kind',
      scenario({}, [{ kind: 'tools/cal' }]),
      /^\/flows\/0\/steps\/0\/kind: must be one of tools\/list, tools\/call, read_output, task, ask \(got "tools\/cal"\)$/,
    ],
    [
      'a call without a tool',
      scenario({}, [{ kind: 'tools/call' }]),
      /^\/flows\/0\/steps\/0: missing field "tool"$/,
    ],
    [
      'zero pages',
      scenario({}, [ping, { kind: 'read_output', pages: 0 }]),
      /^\/flows\/0\/steps\/1\/pages: must be >= 1/,
    ],
    [
      'a think range without max',
      scenario({}, [{ ...ping, think: { min: 5 } }]),
      /^\/flows\/0\/steps\/0\/think: missing field "max"$/,
    ],
    [
      'a think range upside down',
      scenario({}, [{ ...ping, think: { min: 9, max: 5 } }]),
      /^\/flows\/0\/steps\/0\/think: min is above max$/,
    ],
    [
      'read_output first',
      scenario({}, [{ kind: 'read_output' }]),
      /^\/flows\/0\/steps\/0: read_output follows/,
    ],
    [
      'an ask in the handshake era',
      scenario({ era: 'handshake' }, [{ kind: 'ask', tool: 'x' }]),
      /^\/flows\/0\/steps\/0: an ask step speaks 2026-07-28: give its flow the stateless era$/,
    ],
    [
      'a template that is not one',
      scenario({}, [{ ...ping, arguments: { a: ['{{random.nope}}'] } }]),
      /^\/flows\/0\/steps\/0\/arguments\/a\/0: \{\{random.nope\}\} is not a template/,
    ],
    [
      'both arguments and a list',
      scenario({}, [{ ...ping, arguments: {}, argumentsList: [{}] }]),
      /^\/flows\/0\/steps\/0: arguments and argumentsList both give the arguments/,
    ],
    [
      'two flows of one name',
      scenario({
        flows: [
          { name: 'f', steps: [ping] },
          { name: 'f', steps: [ping] },
        ],
      }),
      /^\/flows\/1\/name: another flow is named "f"$/,
    ],
    [
      'an unknown auth',
      scenario({ auth: { type: 'oauth' } }),
      /^\/auth\/type: must be one of file, command, client-credentials \(got "oauth"\)$/,
    ],
    [
      'a secret in the file',
      scenario({
        auth: {
          type: 'client-credentials',
          tokenUrl: 'https://id.example/token',
          clientId: 'c',
          secretEnv: 'S',
          secret: 'x',
        },
      }),
      /^\/auth: unknown field "secret"$/,
    ],
    [
      'a managed header',
      scenario({ headers: { 'Mcp-Method': 'x' } }),
      /^\/headers\/Mcp-Method: cannot be set: /,
    ],
    [
      'both models',
      scenario({ load: { connections: 2, rate: 5 } }),
      /^\/load\/connections: the closed model’s connections and an open model’s rate or phases/,
    ],
    [
      'phases beside a rate',
      scenario({ load: { phases: [{ rate: 1, durationS: 1 }], rate: 5 } }),
      /^\/load\/rate: phases hold the rates/,
    ],
    [
      'an empty schedule',
      scenario({ load: { phases: [{ rate: 0, durationS: 1 }] } }),
      /^\/load: the schedule starts no flow run/,
    ],
  ])('is refused with the path of its problem: %s', (_name, value, message) => {
    expect(problem(value)).toMatch(message);
  });

  it('is refused when it cannot be read', () => {
    expect(() => readScenario(join(folder, 'none.json'))).toThrow(
      /^--scenario: cannot read .*none\.json \(ENOENT\)$/,
    );
  });
});

describe('the templates of arguments', () => {
  it('expand to numbers when alone and into text among other text', () => {
    const values = Array.from({ length: 200 }, () => expand('{{random.int 3 5}}', { index: 0 }));
    expect(new Set(values)).toEqual(new Set([3, 4, 5]));
    expect(expand({ n: '{{index}}', s: 'run-{{index}}' }, { index: 7 })).toEqual({ n: 7, s: 'run-7' });
    expect(expand(['{{ random.uuid }}'], { index: 0 })).toEqual([expect.stringMatching(/^[0-9a-f-]{36}$/)]);
    expect(expand({ uri: '{{link}}' }, { index: 0, link: 'mcp-output://x' })).toEqual({
      uri: 'mcp-output://x',
    });
  });

  it('refuse {{link}} before any step received a link, and a reversed range', () => {
    expect(() => expand('{{link}}', { index: 0 })).toThrow(
      /no step of this flow run has received a resource_link/,
    );
    expect(() => expand('{{random.int 5 3}}')).toThrow(/5 is above 3/);
  });
});

describe('the pick of flows', () => {
  it('gives each flow its weight’s share, interleaved', () => {
    const picker = new FlowPicker([1, 2, 1]);
    const picks = Array.from({ length: 8 }, () => picker.next());
    expect(picks.filter((p) => p === 1)).toHaveLength(4);
    expect(picks.filter((p) => p === 0)).toHaveLength(2);
    expect(picks.slice(0, 4).sort()).toEqual([0, 1, 1, 2]);
  });
});

describe('the command line of a scenario run', () => {
  const URL_ARG = ['--url', 'http://127.0.0.1:3000/mcp'];

  it('takes the model, the endpoint and the headers from the file, and --url over its url', () => {
    const path = file(
      scenario({
        url: 'http://127.0.0.1:9/mcp',
        load: { rate: 5, durationS: 2 },
        headers: { 'X-Team': 'a' },
      }),
    );
    const parsed = parseLoadArgs(['--scenario', path, '--header', 'X-Run: 1']);
    expect(parsed).toMatchObject({
      kind: 'scenario',
      options: {
        url: 'http://127.0.0.1:9/mcp',
        durationS: 2,
        open: { phases: [{ rate: 5, durationS: 2 }], maxInFlight: 1000 },
        headers: { 'x-run': '1' },
        scenario: { headers: { 'x-team': 'a' } },
      },
    });
    expect(parseLoadArgs([...URL_ARG, '--scenario', path])).toMatchObject({ options: { url: URL_ARG[1] } });
  });

  it('lets the command line’s model options replace the file’s model whole', () => {
    const path = file(scenario({ load: { rate: 5, durationS: 2 } }));
    const parsed = parseLoadArgs([...URL_ARG, '--scenario', path, '--connections', '2', '--amount', '6']);
    expect(parsed).toMatchObject({ options: { connections: 2, amount: 6 } });
    expect((parsed as { options: { open?: unknown } }).options.open).toBeUndefined();
  });

  it.each([
    ['--tool', ['--tool', 'ping'], /^--tool does not go with --scenario/],
    ['--era', ['--era', 'stateless'], /^--era does not go with --scenario/],
    ['--initialize', ['--initialize'], /^--initialize does not go with --scenario/],
    ['an SVG report', ['--report', 'x.svg'], /^--report with --scenario writes an HTML page/],
  ])('refuses %s beside --scenario', (_name, argv, message) => {
    expect(() => parseLoadArgs([...URL_ARG, '--scenario', file(scenario()), ...argv])).toThrow(message);
  });

  it('needs an endpoint, and one bearer token', () => {
    expect(() => parseLoadArgs(['--scenario', file(scenario())])).toThrow(
      /^--url is required \(the scenario names no url\)$/,
    );
    const withAuth = file(scenario({ auth: { type: 'file', path: 'token.txt' } }));
    expect(() => parseLoadArgs([...URL_ARG, '--scenario', withAuth, '--token', 't'])).toThrow(
      /^--token and the scenario's auth both give the bearer token/,
    );
  });
});
