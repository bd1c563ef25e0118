import type { Acceptable } from '../wire/admitted.ts';

/** Media-type negotiation for the one MCP endpoint (spec: transports, "Sending Messages to the Server"). */

function mediaTypes(header: string | undefined): string[] {
  if (!header) return [];
  return header
    .split(',')
    .map((part) => part.trim().toLowerCase())
    .filter((part) => !/;\s*q=0(\.0{0,3})?\s*(;|$)/.test(part))
    .map((part) => part.split(';')[0]!.trim());
}

/** Reads the Accept header; a client must accept JSON or an event stream (both, per spec; either is enough here). */
export function acceptable(accept: string | undefined): Acceptable {
  const types = mediaTypes(accept);
  const any = types.includes('*/*');
  return {
    json: any || types.includes('application/json') || types.includes('application/*'),
    sse: types.includes('text/event-stream') || types.includes('text/*'),
  };
}

/** Whether the Content-Type names JSON (parameters such as charset=utf-8 allowed). */
export function isJsonContentType(contentType: string | undefined): boolean {
  if (!contentType) return false;
  const [type, ...params] = contentType
    .toLowerCase()
    .split(';')
    .map((s) => s.trim());
  if (type !== 'application/json') return false;
  const charset = params.find((p) => p.startsWith('charset='));
  return charset === undefined || /^charset="?utf-8"?$/.test(charset);
}
