/** Plain-text tables and the units the bench report prints numbers in. */
import { SERVERS } from './bundle.ts';
import type { Variant } from './variants.ts';

/** Lays out rows under a header; columns after the first are right-aligned unless marked with a leading '<'. */
export function table(header: readonly string[], rows: readonly (readonly string[])[]): string {
  const left = header.map((h, i) => i === 0 || h.startsWith('<'));
  const head = header.map((h) => h.replace(/^</, ''));
  const widths = head.map((h, i) => Math.max(h.length, ...rows.map((r) => (r[i] ?? '').length)));
  const line = (cells: readonly string[]) =>
    cells
      .map((c, i) => (left[i] ? c.padEnd(widths[i]!) : c.padStart(widths[i]!)))
      .join('  ')
      .trimEnd();
  return [line(head), line(widths.map((w) => '-'.repeat(w))), ...rows.map(line)]
    .map((l) => `  ${l}`)
    .join('\n');
}

export const n = (value: number) => Math.round(value).toLocaleString('en-US');
export const pct = (share: number) => `${Math.round(share * 100)}%`;
export const ms = (value: number) => value.toFixed(value < 10 ? 1 : 0);
export const kb = (bytes: number) => (bytes / 1024).toFixed(1);
export const mb = (bytes: number) => (bytes / 1024 / 1024).toFixed(1);
export const x = (ratio: number) => `${ratio.toFixed(1)}x`;

const ERA_VERSION = { stateless: '2026-07-28', handshake: '2025-11-25' } as const;

/** "ours, 2026-07-28" / "SDK 2.x createMcpHandler, 2025-11-25". */
export function variantLabel(variant: Variant): string {
  return `${SERVERS[variant.server].label}, ${ERA_VERSION[variant.era]}`;
}
