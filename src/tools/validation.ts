import { Ajv2020, type ErrorObject, type ValidateFunction } from 'ajv/dist/2020.js';
import type { JsonSchema } from '../protocol/types.ts';

/** The JSON Schema dialect MCP tools default to (spec 2025-11-25: "JSON Schema Usage"). */
export const DIALECT_2020_12 = 'https://json-schema.org/draft/2020-12/schema';

let ajv: Ajv2020 | undefined;

/** One ajv instance per container: strict about schemas, lenient about unknown keywords such as x-mcp-header. */
function instance(): Ajv2020 {
  ajv ??= new Ajv2020({ allErrors: true, strict: false, validateFormats: false });
  return ajv;
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

/** Compiles a schema (callers cache the result: compile once per container, never per call). */
export function compileSchema(schema: JsonSchema): ValidateFunction {
  return instance().compile(schema);
}

/** Renders ajv errors as one sentence naming each field, e.g. `"b" must be number; missing required "a"`. */
export function describeErrors(errors: ErrorObject[] | null | undefined): string {
  if (!errors?.length) return 'does not match the schema';
  const parts = errors.slice(0, 5).map((e) => {
    const field = e.instancePath
      ? `"${e.instancePath.slice(1).replaceAll('/', '.')}"`
      : 'the arguments object';
    if (e.keyword === 'required')
      return `missing required field "${(e.params as { missingProperty: string }).missingProperty}"`;
    if (e.keyword === 'additionalProperties') {
      return `${field} has unexpected field "${(e.params as { additionalProperty: string }).additionalProperty}"`;
    }
    if (e.keyword === 'enum') {
      return `${field} must be one of ${JSON.stringify((e.params as { allowedValues: unknown[] }).allowedValues)}`;
    }
    return `${field} ${e.message ?? 'is invalid'}`;
  });
  if (errors.length > 5) parts.push(`and ${errors.length - 5} more`);
  return parts.join('; ');
}
