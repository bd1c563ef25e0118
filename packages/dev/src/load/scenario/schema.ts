/**
 * The scenario file's JSON Schema (scenarios/scenario.schema.json, shipped in the package so an editor can check a
 * file as it is written) and the check of a file against it, whose error names the path of the bad field.
 */
import { readFileSync } from 'node:fs';
import { Ajv, type ErrorObject, type ValidateFunction } from 'ajv';

/** The schema's place beside src/ and dist/ alike (both three folders below the package). */
const SCHEMA_URL = new URL('../../../scenarios/scenario.schema.json', import.meta.url);

let schema: Record<string, unknown> | undefined;
let validator: ValidateFunction | undefined;

/** The scenario file's JSON Schema (draft-07). */
export function scenarioSchema(): Record<string, unknown> {
  schema ??= JSON.parse(readFileSync(SCHEMA_URL, 'utf8')) as Record<string, unknown>;
  return schema;
}

function validate(): ValidateFunction {
  // `discriminator` picks a step's (or an auth's) branch by its kind, so an error names that branch's field
  // instead of every branch's.
  validator ??= new Ajv({ discriminator: true, allowUnionTypes: true, verbose: true }).compile(
    scenarioSchema(),
  );
  return validator;
}

const shown = (value: unknown) => {
  const text = JSON.stringify(value) ?? String(value);
  return text.length > 60 ? `${text.slice(0, 60)}…` : text;
};

/** The kinds a discriminated branch allows, from its `oneOf` branches' constants. */
function tags(error: ErrorObject): string {
  const branches = (error.parentSchema as { oneOf?: { properties: Record<string, { const: string }> }[] })
    .oneOf;
  const tag = (error.params as { tag: string }).tag;
  return (branches ?? []).map((b) => b.properties[tag]?.const).join(', ');
}

/** One error in words, led by the path of the field it is about. */
function describe(error: ErrorObject): string {
  const at = error.instancePath || '/';
  const params = error.params as Record<string, unknown>;
  switch (error.keyword) {
    case 'additionalProperties':
      return `${at}: unknown field ${shown(params.additionalProperty)}`;
    case 'required':
      return `${at}: missing field ${shown(params.missingProperty)}`;
    case 'discriminator':
      return `${error.instancePath}/${String(params.tag)}: must be one of ${tags(error)} (got ${shown(params.tagValue)})`;
    case 'enum':
      return `${at}: must be one of ${(params.allowedValues as unknown[]).join(', ')} (got ${shown(error.data)})`;
    case 'const':
      return `${at}: must be ${shown(params.allowedValue)} (got ${shown(error.data)})`;
    default:
      return `${at}: ${error.message ?? 'is not valid'} (got ${shown(error.data)})`;
  }
}

/** Checks a parsed file against the schema: undefined when it fits, else the first problem, path first. */
export function schemaProblem(value: unknown): string | undefined {
  const check = validate();
  if (check(value)) return undefined;
  return describe(check.errors![0]!);
}
