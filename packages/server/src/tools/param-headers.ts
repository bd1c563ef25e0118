import type { JsonSchema } from '../protocol/types.ts';
import { isJsonObject } from '../protocol/json.ts';

/**
 * `x-mcp-header` (2026-07-28, Streamable HTTP "Schema Extension"): a tool parameter mirrored by clients into an
 * `Mcp-Param-{Name}` header so gateways can route on it. Declarations are checked at definition time; the
 * transport checks the mirrored headers against the body.
 */
export interface ParamHeader {
  /** Path of the parameter inside `arguments`, through `properties` only. */
  path: string[];
  /** Header suffix as declared: the header is `Mcp-Param-{name}`. */
  name: string;
  type: 'string' | 'integer' | 'boolean';
}

const TOKEN = /^[!#$%&'*+\-.^_`|~0-9A-Za-z]+$/;
const PRIMITIVES = new Set(['string', 'integer', 'boolean']);
/** Keywords whose subschemas are not reachable through a chain of `properties`. */
const UNREACHABLE = [
  'items',
  'prefixItems',
  'contains',
  'additionalProperties',
  'unevaluatedProperties',
  'unevaluatedItems',
  'propertyNames',
  'patternProperties',
  'dependentSchemas',
  'oneOf',
  'anyOf',
  'allOf',
  'not',
  'if',
  'then',
  'else',
  '$defs',
  'definitions',
] as const;
const MAP_VALUED = new Set(['patternProperties', 'dependentSchemas', '$defs', 'definitions']);

/** Collects the `x-mcp-header` declarations of an input schema; throws a definition error when one is invalid. */
export function scanParamHeaders(toolName: string, schema: JsonSchema): ParamHeader[] {
  const found: ParamHeader[] = [];
  const seen = new Map<string, string>();
  const fail = (path: string[], why: string): never => {
    throw new Error(`Tool "${toolName}": x-mcp-header at ${path.join('.') || '<root>'} ${why}`);
  };
  const visit = (node: unknown, path: string[], reachable: boolean): void => {
    if (!isJsonObject(node)) return;
    if ('x-mcp-header' in node) {
      if (!reachable || path.length === 0)
        fail(path, 'must sit on a property reachable through "properties" only');
      const name = node['x-mcp-header'];
      if (typeof name !== 'string' || !TOKEN.test(name)) fail(path, 'must be a non-empty HTTP token');
      const type = node.type;
      if (typeof type !== 'string' || !PRIMITIVES.has(type)) {
        fail(path, `must annotate a string, integer or boolean property (got ${String(type)})`);
      }
      const lower = (name as string).toLowerCase();
      if (seen.has(lower))
        fail(path, `"${name as string}" duplicates "${seen.get(lower)}" (names are case-insensitive)`);
      seen.set(lower, name as string);
      found.push({ path, name: name as string, type: type as ParamHeader['type'] });
    }
    if (isJsonObject(node.properties)) {
      for (const [key, child] of Object.entries(node.properties)) visit(child, [...path, key], reachable);
    }
    for (const keyword of UNREACHABLE) {
      const sub = node[keyword];
      if (sub === undefined) continue;
      const branches = Array.isArray(sub)
        ? sub
        : MAP_VALUED.has(keyword) && isJsonObject(sub)
          ? Object.values(sub)
          : [sub];
      for (const branch of branches) visit(branch, [...path, `<${keyword}>`], false);
    }
  };
  visit(schema, [], true);
  return found;
}

/** The header value a client sends for an argument value, before any Base64 wrapping. */
export function paramHeaderValue(value: unknown): string | undefined {
  if (typeof value === 'string') return value;
  if (typeof value === 'boolean') return value ? 'true' : 'false';
  if (typeof value === 'number' && Number.isSafeInteger(value)) return String(value);
  return undefined;
}

/** Reads the argument a declaration points at. */
export function valueAtPath(args: unknown, path: readonly string[]): unknown {
  let node = args;
  for (const key of path) {
    if (!isJsonObject(node)) return undefined;
    node = node[key];
  }
  return node;
}
