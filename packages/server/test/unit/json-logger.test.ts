import { describe, expect, it } from 'vitest';
import { jsonLogger, loadLogLevel, type LogLevel } from '../../src/faces/lambda.ts';

const capture = (level: LogLevel, traceHeader?: string) => {
  const lines: { level: string; line: string }[] = [];
  const log = jsonLogger({
    serviceName: 'svc',
    level,
    write: (l, line) => lines.push({ level: l, line }),
    traceHeader: () => traceHeader,
  });
  return { log, lines, parsed: () => lines.map((l) => JSON.parse(l.line) as Record<string, unknown>) };
};

describe('jsonLogger', () => {
  it('writes one JSON line per entry in the Powertools shape, attributes at the top level', () => {
    const { log, lines, parsed } = capture('INFO', 'Root=1-abc-def;Parent=1;Sampled=0');
    log.info('request', { requestId: 'r1', status: 200 }, { ms: 3 });
    expect(lines).toHaveLength(1);
    expect(lines[0]!.line.endsWith('\n')).toBe(true);
    expect(lines[0]!.line.trimEnd()).not.toContain('\n');
    expect(parsed()[0]).toEqual({
      level: 'INFO',
      message: 'request',
      timestamp: expect.stringMatching(/^\d{4}-\d\d-\d\dT/),
      service: 'svc',
      xray_trace_id: '1-abc-def',
      requestId: 'r1',
      status: 200,
      ms: 3,
    });
  });

  it('drops entries below its level, and SILENT drops all', () => {
    const warn = capture('WARN');
    warn.log.debug('d');
    warn.log.info('i');
    warn.log.warn('w');
    warn.log.error('e');
    expect(warn.parsed().map((l) => l.level)).toEqual(['WARN', 'ERROR']);
    const silent = capture('SILENT');
    silent.log.error('e');
    expect(silent.lines).toEqual([]);
  });

  it('formats Error attributes and keeps the line when an attribute cannot be serialized', () => {
    const { log, parsed } = capture('DEBUG');
    log.error('failed', { error: new RangeError('bad') });
    const cyclic: Record<string, unknown> = {};
    cyclic.self = cyclic;
    log.warn('odd', { cyclic });
    const [failed, odd] = parsed();
    expect(failed!.error).toMatchObject({ name: 'RangeError', message: 'bad', stack: expect.any(String) });
    expect(odd).toMatchObject({ level: 'WARN', message: 'odd', log_error: 'attributes not serializable' });
    expect(odd).not.toHaveProperty('cyclic');
  });
});

describe('loadLogLevel', () => {
  it('reads POWERTOOLS_LOG_LEVEL, then LOG_LEVEL, then AWS_LAMBDA_LOG_LEVEL, else INFO', () => {
    expect(loadLogLevel({})).toBe('INFO');
    expect(loadLogLevel({ AWS_LAMBDA_LOG_LEVEL: 'WARN' })).toBe('WARN');
    expect(loadLogLevel({ LOG_LEVEL: 'error', AWS_LAMBDA_LOG_LEVEL: 'WARN' })).toBe('ERROR');
    expect(loadLogLevel({ POWERTOOLS_LOG_LEVEL: 'silent', LOG_LEVEL: 'ERROR' })).toBe('SILENT');
  });

  it('reads TRACE as DEBUG, CRITICAL as ERROR and anything else as INFO', () => {
    expect(loadLogLevel({ LOG_LEVEL: 'TRACE' })).toBe('DEBUG');
    expect(loadLogLevel({ LOG_LEVEL: 'CRITICAL' })).toBe('ERROR');
    expect(loadLogLevel({ LOG_LEVEL: 'loud' })).toBe('INFO');
  });
});
