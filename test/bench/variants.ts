/**
 * The server × protocol-era combinations the benchmark compares. Ours and SDK 2.x serve both eras; SDK 1.x serves
 * only the 2025 era. Every ratio compares servers in the same era.
 */
import { toolCallRequest, type LoadEra, type WireRequest } from '../load/mcp-request.ts';
import type { ServerId } from './bundle.ts';

export interface Variant {
  id: string;
  server: ServerId;
  era: LoadEra;
}

export const VARIANTS: readonly Variant[] = [
  { id: 'ours-modern', server: 'ours', era: 'modern' },
  { id: 'ours-legacy', server: 'ours', era: 'legacy' },
  { id: 'sdk2-modern', server: 'sdk2', era: 'modern' },
  { id: 'sdk2-legacy', server: 'sdk2', era: 'legacy' },
  { id: 'sdk1-legacy', server: 'sdk1', era: 'legacy' },
];

/** Our variant in the same era, the reference of every ratio. */
export const oursFor = (variant: Variant): string => `ours-${variant.era}`;

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
