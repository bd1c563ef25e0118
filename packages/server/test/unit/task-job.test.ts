import { describe, expect, it } from 'vitest';
import { clientKeyOf, principalKeys } from '../../src/auth/principal.ts';
import { parseTaskJob } from '../../src/tasks/job.ts';
import { taskJobPayload } from '../../src/tasks/launchers.ts';

// A task's run gets the caller of the request that caused it: the worker reads the principal from the job, and its
// client key is derived there again (auth/principal.ts), never taken from the payload.

const principal = {
  subject: 'alice',
  issuer: 'https://issuer.example.com',
  clientId: 'app-1',
  scopes: ['mcp'],
  expiresAt: 4e9,
  ...principalKeys('https://issuer.example.com', 'alice', 'app-1'),
};
const job = {
  version: 1 as const,
  taskId: '0123456789abcdef0123456789abcdef',
  round: 1,
  principal,
  era: 'handshake' as const,
  protocolVersion: '2025-11-25',
  clientCapabilities: {},
};

const parsed = (value: unknown) => parseTaskJob(JSON.parse(taskJobPayload(value as typeof job)));

describe('the principal of a task job', () => {
  it('round-trips, with the client key of its key and client', () => {
    const read = parseTaskJob(JSON.parse(taskJobPayload(job)));
    expect(read?.principal).toEqual(principal);
  });

  it('gets its client key derived again: missing (a job sent before it existed) or altered', () => {
    const { clientKey: _dropped, ...older } = principal;
    const expected = clientKeyOf(principal.key, 'app-1');
    expect(parsed({ ...job, principal: older })?.principal?.clientKey).toBe(expected);
    const altered = { ...principal, clientKey: principalKeys(principal.issuer, 'alice', 'app-2').clientKey };
    expect(parsed({ ...job, principal: altered })?.principal?.clientKey).toBe(expected);
  });
});
