/**
 * The server × protocol-era combinations the benchmark compares. Ours and SDK 2.x serve both eras; SDK 1.x serves
 * only the 2025 era. Every ratio compares servers in the same era.
 */
import { toolCallRequest, type LoadEra, type WireRequest } from '@mcp-lambda/dev/load';
import type { ServerId } from './bundle.ts';

export interface Variant {
  id: string;
  server: ServerId;
  era: LoadEra;
}

export const VARIANTS: readonly Variant[] = [
  { id: 'ours-stateless', server: 'ours', era: 'stateless' },
  { id: 'ours-handshake', server: 'ours', era: 'handshake' },
  { id: 'sdk2-stateless', server: 'sdk2', era: 'stateless' },
  { id: 'sdk2-handshake', server: 'sdk2', era: 'handshake' },
  { id: 'sdk1-handshake', server: 'sdk1', era: 'handshake' },
];

/** The call a cold start answers first: a tool with arguments, so argument validation is part of it. */
export const COLD_START_CALL = { tool: 'safe_divide', args: { a: 6, b: 3 } } as const;

/** The trivial call of the throughput runs. */
export const THROUGHPUT_CALL = { tool: 'ping', args: {} } as const;

/** The wire request of a call in a variant's era. */
export function requestFor(
  variant: Pick<Variant, 'era'>,
  call: { tool: string; args: Record<string, unknown> },
): WireRequest {
  return toolCallRequest(call.tool, call.args, { era: variant.era });
}
