import type { ErrorObject } from 'ajv';
import { clientText } from '../protocol/client-text.ts';
import type { JsonSchema } from '../protocol/types.ts';

/** The JSON Schema dialect MCP tools default to (spec 2025-11-25: "JSON Schema Usage"). */
const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

/** A compiled validator, as ajv produces it (compiled at run time or precompiled at build time). */
export type Validator = ((data: unknown) => boolean) & { errors?: ErrorObject[] | null };

/**
 * Validators generated at build time (`npm run generate`), keyed by `tool#input` / `tool#output`: the validator
 * itself, or how to load its module (a bundle then compiles it on the tool's first call). Each entry carries the
 * hash of the schema it was generated from, so a stale entry is never used.
 */
export type PrecompiledValidators = Readonly<
  Record<
    string,
    { hash: string; validate: Validator } | { hash: string; load: () => Promise<{ validate: Validator }> }
  >
>;

/** Options shared by run-time compilation and build-time generation, so both validate identically. */
export const AJV_OPTIONS = { allErrors: true, strict: false, validateFormats: false } as const;

/**
 * Identifies a schema's exact text: a 64-bit hash in the manner of FNV-1a, in two 32-bit lanes. It only tells a
 * stale generated validator from a current one, so it needs no cryptographic hash, and a tool's first call loads
 * no crypto module.
 */
export function schemaHash(schema: JsonSchema): string {
  const text = JSON.stringify(schema);
  let low = 0x811c9dc5;
  let high = 0xcbf29ce4;
  for (let i = 0; i < text.length; i++) {
    const code = text.charCodeAt(i);
    low = Math.imul(low ^ code, 0x01000193) >>> 0;
    high = Math.imul(high ^ code ^ (low >>> 24), 0x01000193) >>> 0;
  }
  return high.toString(16).padStart(8, '0') + low.toString(16).padStart(8, '0');
}

/** Throws at definition time when a schema names a dialect other than 2020-12 or is not a root object schema. */
export function assertSupportedSchema(
  owner: string,
  schema: JsonSchema,
  role: 'inputSchema' | 'outputSchema',
): void {
  const dialect = schema.$schema;
  if (dialect !== undefined && dialect !== DIALECT_2020_12 && dialect !== `${DIALECT_2020_12}#`) {
    throw new Error(`${owner}: ${role} uses unsupported dialect ${String(dialect)}; use ${DIALECT_2020_12}`);
  }
  if (schema.type !== 'object') throw new Error(`${owner}: ${role} must have "type": "object" at the root`);
}

let ajv: Promise<{ compile(schema: JsonSchema): Validator }> | undefined;

/**
 * The run-time compiler, loaded only when a schema has no precompiled validator (local development, tests, tools
 * added since the last `npm run generate`). Deployed bundles carry precompiled validators and never load ajv.
 */
function runtimeCompiler(): Promise<{ compile(schema: JsonSchema): Validator }> {
  ajv ??= import('ajv/dist/2020.js').then(
    ({ Ajv2020 }) => new Ajv2020(AJV_OPTIONS),
    () => {
      throw new Error(
        'a tool schema has no precompiled validator and ajv is not bundled: run `npm run generate`',
      );
    },
  );
  return ajv;
}

/** Returns the validator for a schema: the precompiled one when it matches, else compiled once per container. */
export async function compileSchema(
  key: string,
  schema: JsonSchema,
  precompiled: PrecompiledValidators = {},
): Promise<Validator> {
  const entry = precompiled[key];
  if (entry && entry.hash === schemaHash(schema))
    return 'validate' in entry ? entry.validate : (await entry.load()).validate;
  return (await runtimeCompiler()).compile(schema);
}

/**
 * Renders ajv errors as one sentence naming each field, e.g. `"b" must be number; missing required "a"`. Field
 * paths and unexpected field names are the client's: each is capped (`clientText`), and at most five are named.
 */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'does not match the schema';
  const parts = errors.slice(0, 5).map((e) => {
    const field = e.instancePath
      ? `"${clientText(e.instancePath.slice(1).replaceAll('/', '.'))}"`
      : 'the arguments object';
    if (e.keyword === 'required') {
      const missing = `missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
      return e.instancePath ? `${field} is ${missing}` : missing;
    }
    if (e.keyword === 'additionalProperties') {
      const unexpected = (e.params as { additionalProperty: string }).additionalProperty;
      return `${field} has unexpected field "${clientText(unexpected)}"`;
    }
    if (e.keyword === 'enum') {
      return `${field} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    }
    return `${field} ${e.message ?? 'is invalid'}`;
  });
  if (errors.length > 5) parts.push(`and ${errors.length - 5} more`);
  return parts.join('; ');
}
