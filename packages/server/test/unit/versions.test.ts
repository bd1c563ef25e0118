import { describe, expect, it } from 'vitest';
import { ErrorCode, McpError } from '../../src/protocol/errors.ts';
import {
  classifyEra,
  DEFAULT_HANDSHAKE_VERSION,
  eraFromWire,
  eraToWire,
  MetaKey,
  negotiateHandshakeVersion,
  SUPPORTED_PROTOCOL_VERSIONS,
} from '../../src/protocol/versions.ts';

const caps = {};
const meta = (extra: Record<string, unknown> = {}) => ({
  [MetaKey.ProtocolVersion]: '2026-07-28',
  [MetaKey.ClientCapabilities]: caps,
  ...extra,
});

type Row = {
  name: string;
  method?: string;
  params?: unknown;
  header?: string;
  kind?: 'request' | 'notification';
  era?: 'handshake' | 'stateless';
  version?: string;
  code?: number;
};

/** One row per rule of era detection (2026-07-28 "Versioning": the body decides), plus the envelope checks. */
const rows: Row[] = [
  {
    name: 'rule 1: a stateless claim is stateless',
    params: { _meta: meta() },
    era: 'stateless',
    version: '2026-07-28',
  },
  {
    name: 'rule 1: a stateless claim wins over a handshake header',
    params: { _meta: meta() },
    header: '2025-06-18',
    era: 'stateless',
    version: '2026-07-28',
  },
  {
    name: 'rule 1: a stateless claim makes initialize stateless too',
    method: 'initialize',
    params: { _meta: meta() },
    era: 'stateless',
    version: '2026-07-28',
  },
  {
    name: 'rule 1: a claim without clientCapabilities is 400 -32602',
    params: { _meta: { [MetaKey.ProtocolVersion]: '2026-07-28' } },
    code: ErrorCode.InvalidParams,
  },
  {
    name: 'rule 1: clientCapabilities that are not an object are 400 -32602',
    params: { _meta: meta({ [MetaKey.ClientCapabilities]: [] }) },
    code: ErrorCode.InvalidParams,
  },
  {
    name: 'rule 1: a non-string version claim is 400 -32602',
    params: { _meta: meta({ [MetaKey.ProtocolVersion]: 20260728 }) },
    code: ErrorCode.InvalidParams,
  },
  {
    name: 'rule 1: clientInfo that is not an object is 400 -32602',
    params: { _meta: meta({ [MetaKey.ClientInfo]: 'me' }) },
    code: ErrorCode.InvalidParams,
  },
  {
    name: 'rule 1: a logLevel that is not a logging level is 400 -32602',
    params: { _meta: meta({ [MetaKey.LogLevel]: 'verbose' }) },
    code: ErrorCode.InvalidParams,
  },
  {
    name: 'rule 1: a valid logLevel is accepted',
    params: { _meta: meta({ [MetaKey.LogLevel]: 'warning' }) },
    era: 'stateless',
    version: '2026-07-28',
  },
  {
    name: 'rule 1: an unknown claimed version is 400 -32022',
    params: { _meta: meta({ [MetaKey.ProtocolVersion]: '2099-01-01' }) },
    code: ErrorCode.UnsupportedProtocolVersion,
  },
  {
    name: 'rule 1: an unknown claimed version under a header naming the same version is 400 -32022',
    params: { _meta: meta({ [MetaKey.ProtocolVersion]: '2099-01-01' }) },
    header: '2099-01-01',
    code: ErrorCode.UnsupportedProtocolVersion,
  },
  {
    name: 'rule 1: an unknown claimed version under a header naming another version is 400 -32020',
    params: { _meta: meta({ [MetaKey.ProtocolVersion]: '2099-01-01' }) },
    header: '2026-07-28',
    code: ErrorCode.HeaderMismatch,
  },
  {
    name: 'rule 1: a handshake version claimed in _meta is 400 -32022',
    params: { _meta: meta({ [MetaKey.ProtocolVersion]: '2025-06-18' }) },
    code: ErrorCode.UnsupportedProtocolVersion,
  },
  { name: 'rule 2: initialize without a claim is handshake', method: 'initialize', era: 'handshake' },
  {
    name: 'rule 2: initialize is judged by its body, not by a stateless header',
    method: 'initialize',
    header: '2026-07-28',
    era: 'handshake',
  },
  {
    name: 'rule 2: initialize is judged by its body, not by an unknown header',
    method: 'initialize',
    header: '1999-01-01',
    era: 'handshake',
  },
  {
    name: 'rule 3: a stateless header on a request without a claim is 400 -32602',
    header: '2026-07-28',
    code: ErrorCode.InvalidParams,
  },
  {
    name: 'rule 3: a stateless header with an incomplete envelope is 400 -32602',
    params: { _meta: { [MetaKey.ClientCapabilities]: {} } },
    header: '2026-07-28',
    code: ErrorCode.InvalidParams,
  },
  {
    name: 'rule 3 does not apply to notifications, which carry no envelope: the header names the era',
    method: 'notifications/cancelled',
    header: '2026-07-28',
    kind: 'notification',
    era: 'stateless',
    version: '2026-07-28',
  },
  {
    name: 'rule 4: no claim and no header is handshake 2025-03-26',
    era: 'handshake',
    version: DEFAULT_HANDSHAKE_VERSION,
  },
  {
    name: 'rule 4: no claim, handshake header → that version',
    header: '2025-06-18',
    era: 'handshake',
    version: '2025-06-18',
  },
  { name: 'rule 4: 2025-11-25 is served', header: '2025-11-25', era: 'handshake', version: '2025-11-25' },
  {
    name: 'rule 4: an unknown header version is 400 -32022',
    header: '2024-11-05',
    code: ErrorCode.UnsupportedProtocolVersion,
  },
  {
    name: 'rule 4: an unknown header version on a notification is 400 too',
    header: 'banana',
    kind: 'notification',
    method: 'notifications/initialized',
    code: ErrorCode.UnsupportedProtocolVersion,
  },
  {
    name: 'a _meta without the version key is not a claim',
    params: { _meta: { progressToken: 1 } },
    era: 'handshake',
    version: DEFAULT_HANDSHAKE_VERSION,
  },
];

describe('classifyEra', () => {
  it.each(rows)('$name', ({ method = 'tools/list', params, header, kind, era, version, code }) => {
    if (era) {
      const result = classifyEra(method, params, header, kind);
      expect(result.era).toBe(era);
      if (version) expect(result.protocolVersion).toBe(version);
      return;
    }
    let error: unknown;
    try {
      classifyEra(method, params, header, kind);
    } catch (e) {
      error = e;
    }
    expect(error).toBeInstanceOf(McpError);
    expect((error as McpError).code).toBe(code);
  });

  it('a stateless request keeps its client capabilities and info', () => {
    const info = { name: 'c', version: '1' };
    expect(classifyEra('tools/list', { _meta: meta({ [MetaKey.ClientInfo]: info }) }, undefined)).toEqual({
      era: 'stateless',
      protocolVersion: '2026-07-28',
      clientCapabilities: caps,
      clientInfo: info,
    });
  });

  it('-32022 names the supported versions and the requested one', () => {
    try {
      classifyEra('tools/list', { _meta: meta({ [MetaKey.ProtocolVersion]: '2099-01-01' }) }, undefined);
      expect.unreachable();
    } catch (e) {
      expect((e as McpError).data).toEqual({
        supported: [...SUPPORTED_PROTOCOL_VERSIONS],
        requested: '2099-01-01',
      });
    }
  });

  it('the -32602 for a missing envelope names the missing keys', () => {
    try {
      classifyEra('tools/list', {}, '2026-07-28');
      expect.unreachable();
    } catch (e) {
      expect((e as McpError).data).toEqual({
        envelope: { missing: [MetaKey.ProtocolVersion, MetaKey.ClientCapabilities] },
      });
    }
  });
});

describe('negotiateHandshakeVersion', () => {
  it.each([
    ['2025-03-26', '2025-03-26'],
    ['2025-06-18', '2025-06-18'],
    ['2025-11-25', '2025-11-25'],
    ['2024-11-05', '2025-11-25'],
    ['2026-07-28', '2025-11-25'],
    [undefined, '2025-11-25'],
    [42, '2025-11-25'],
  ])('a client asking for %j gets %s', (requested, answered) => {
    expect(negotiateHandshakeVersion(requested)).toBe(answered);
  });
});

describe("the eras between this project's functions", () => {
  it.each([
    ['handshake', 'legacy'],
    ['stateless', 'modern'],
  ] as const)('%s goes by the name it was first deployed with, %s, both ways', (era, wire) => {
    expect(eraToWire(era)).toBe(wire);
    expect(eraFromWire(wire)).toBe(era);
  });

  it.each([['handshake'], ['stateless'], ['future'], [undefined], [1]])(
    '%j names no era on the wire',
    (value) => {
      expect(eraFromWire(value)).toBeUndefined();
    },
  );
});
