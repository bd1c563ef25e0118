import { describe, expect, it } from 'vitest';
import { judge, missingChecks, parseBaseline, type ScenarioResult } from './verdict.ts';

const result = (scenario: string, ...statuses: string[]): ScenarioResult => ({
  scenario,
  checks: statuses.map((status, i) => ({ id: `${scenario}-${i}`, status })),
});

describe('conformance baseline files', () => {
  it('reads the scenario names of a commented server list', () => {
    const text = '# why\nserver:\n  # reason\n  - tools-call-sampling\n  - resources-subscribe # inline\n\n';
    expect(parseBaseline(text)).toEqual(['tools-call-sampling', 'resources-subscribe']);
  });

  it('reads an empty server list as no expected failure', () => {
    expect(parseBaseline('# nothing fails\nserver: []\n')).toEqual([]);
  });

  it.each([
    ['an entry outside the server list', '  - ping\n'],
    ['entries after an empty server list', 'server: []\n  - ping\n'],
    ['a client list', 'client:\n  - ping\n'],
    ['an entry with a space after its colon', 'server:\n  - ping: check\n'],
    ['a scenario listed twice', 'server:\n  - ping\n  - ping\n'],
  ])('refuses %s', (_name, text) => {
    expect(() => parseBaseline(text)).toThrow(/baseline line/);
  });
});

describe('conformance verdict', () => {
  it.each([
    ['a passing scenario', [result('ping', 'SUCCESS', 'INFO')], [], { passed: ['ping'], ok: true }],
    ['a skipped check', [result('ping', 'SUCCESS', 'SKIPPED')], [], { passed: ['ping'], ok: true }],
    ['a baselined failure', [result('ping', 'FAILURE')], ['ping'], { expected: ['ping'], ok: true }],
    [
      'a warning, which fails like the suites count it',
      [result('ping', 'WARNING')],
      [],
      { unexpected: ['ping'], ok: false },
    ],
    ['a new failure', [result('ping', 'SUCCESS', 'FAILURE')], [], { unexpected: ['ping'], ok: false }],
    [
      'a baselined scenario that now passes',
      [result('ping', 'SUCCESS')],
      ['ping'],
      { stale: ['ping'], ok: false },
    ],
    [
      'a baselined scenario that did not run',
      [result('ping', 'SUCCESS')],
      ['gone'],
      { stale: ['gone'], ok: false },
    ],
    ['a run with no results at all', [], [], { ok: false }],
  ])('judges %s', (_name, results, baseline, expected) => {
    expect(judge(results, baseline)).toMatchObject(expected);
  });
});

describe('required checks', () => {
  const required = { 'server-sse-polling': ['priming', 'resume'] };
  const polling = (...checks: [string, string][]): ScenarioResult => ({
    scenario: 'server-sse-polling',
    checks: checks.map(([id, status]) => ({ id, status })),
  });

  it.each([
    [
      'every required check SUCCESS',
      polling(['priming', 'SUCCESS'], ['resume', 'SUCCESS']),
      { passed: ['server-sse-polling'], ok: true },
    ],
    [
      'a required check fallen back to WARNING',
      polling(['priming', 'SUCCESS'], ['resume', 'WARNING']),
      { unexpected: ['server-sse-polling'], ok: false },
    ],
    [
      'a required check only INFO (a server that answers in JSON)',
      polling(['priming', 'INFO'], ['resume', 'INFO']),
      { unexpected: ['server-sse-polling'], ok: false },
    ],
    [
      'a required check missing',
      polling(['priming', 'SUCCESS']),
      { unexpected: ['server-sse-polling'], ok: false },
    ],
  ])('judges %s', (_name, result, expected) => {
    expect(judge([result], [], required)).toMatchObject(expected);
  });

  it('fails a run in which the required scenario did not run', () => {
    expect(judge([result('ping', 'SUCCESS')], [], required)).toMatchObject({
      unexpected: ['server-sse-polling'],
      ok: false,
    });
  });

  it('names the required checks that are not SUCCESS', () => {
    expect(missingChecks(polling(['priming', 'SUCCESS'], ['resume', 'INFO']), required)).toEqual(['resume']);
  });
});
