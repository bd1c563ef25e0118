import { describe, expect, it } from 'vitest';
import { offeredLoad } from '../../src/commands/load-stack.ts';
import { parseLoadArgs, UsageError } from '../../src/load/options.ts';

/** `npm run load -- --stack NAME [--region R]`: its options, and the load it offers the preflight to judge. */

const HTTP_URL = 'https://abc123.execute-api.eu-west-1.amazonaws.com/live/mcp';
const open = (peakRate: number) => ({
  model: 'open' as const,
  peakRate,
  unit: 'requests' as const,
});
const closed = (connections: number) => ({
  model: 'closed' as const,
  connections,
  unit: 'requests' as const,
});

describe('the command line of the stack side', () => {
  const URL_ARG = ['--url', HTTP_URL];

  it('reads --stack and --region, for a single tool and a scenario alike', () => {
    const parsed = parseLoadArgs([...URL_ARG, '--stack', 'McpServer', '--region', 'eu-west-1']);
    expect(parsed).toMatchObject({
      kind: 'run',
      options: { stack: { name: 'McpServer', region: 'eu-west-1' } },
    });
    expect(parseLoadArgs([...URL_ARG, '--stack', 'McpServer'])).toMatchObject({
      options: { stack: { name: 'McpServer' } },
    });
  });

  it.each([
    [['--region', 'eu-west-1'], '--region is the region of --stack: give --stack with it'],
    [['--stack', '1stack'], /^--stack must be a CloudFormation stack name/],
    [
      ['--stack', 'McpServer', '--region', 'Europe'],
      '--region must be an AWS region such as eu-west-1 (got "Europe")',
    ],
  ])('refuses %j', (argv, message) => {
    expect(() => parseLoadArgs([...URL_ARG, ...argv])).toThrow(UsageError);
    expect(() => parseLoadArgs([...URL_ARG, ...argv])).toThrow(message);
  });

  it('offers the open model’s peak rate (a ramp’s top included), or the closed model’s connections', () => {
    const phases = [
      { rate: 10, durationS: 30 },
      { rate: 10, rampTo: 120, durationS: 60 },
      { rate: 100, durationS: 60 },
    ];
    expect(offeredLoad({ connections: 10, open: { phases, maxInFlight: 1000 } }, 'requests')).toEqual(
      open(120),
    );
    expect(offeredLoad({ connections: 4 }, 'requests')).toEqual(closed(4));
  });
});
