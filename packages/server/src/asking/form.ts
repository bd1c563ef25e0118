import { clientText } from '../protocol/client-text.ts';
import { isJsonObject } from '../protocol/json.ts';
import type { JSONObject, JSONValue } from '../protocol/types.ts';

/**
 * Elicitation forms (2025-11-25 client/elicitation, "Requested Schema"): a flat object of primitive fields, so any
 * client can render it. `formProblem` checks a tool's schema before it is sent (a tool's bug, caught at the ask);
 * `answerProblem` checks an accepted answer against it before the tool sees it (the client's values are input).
 */

const STRING_FORMATS = new Set(['email', 'uri', 'date', 'date-time']);

/** The allowed values of an enum field (plain `enum`, titled `oneOf`/`anyOf` of `const`), or undefined. */
function choices(field: JSONObject): string[] | undefined {
  if (Array.isArray(field.enum)) return field.enum.filter((v): v is string => typeof v === 'string');
  const titled = field.oneOf ?? field.anyOf;
  if (Array.isArray(titled))
    return titled.flatMap((o) => (isJsonObject(o) && typeof o.const === 'string' ? [o.const] : []));
  return undefined;
}

const isStringList = (value: unknown): value is string[] =>
  Array.isArray(value) && value.every((v) => typeof v === 'string');

/** What is wrong with one field's schema, or undefined. */
function fieldProblem(field: unknown): string | undefined {
  if (!isJsonObject(field)) return 'is not an object';
  switch (field.type) {
    case 'string': {
      const allowed = choices(field);
      if (allowed !== undefined && allowed.length === 0) return 'has an enum with no string values';
      if (field.format !== undefined && !STRING_FORMATS.has(field.format as string))
        return `has an unsupported format ${JSON.stringify(field.format)}`;
      return field.default === undefined || typeof field.default === 'string'
        ? undefined
        : 'has a default that is not a string';
    }
    case 'number':
    case 'integer':
    case 'boolean':
      return field.default === undefined ||
        typeof field.default === (field.type === 'boolean' ? 'boolean' : 'number')
        ? undefined
        : `has a default that is not a ${field.type}`;
    case 'array': {
      const items = field.items;
      if (!isJsonObject(items) || !choices(items)?.length)
        return 'is an array whose items are not an enum of strings (multi-select)';
      return field.default === undefined || isStringList(field.default)
        ? undefined
        : 'has a default that is not a list of strings';
    }
    default:
      return `has type ${JSON.stringify(field.type)}; use string, number, integer, boolean or an array of enum values`;
  }
}

/** What is wrong with a form schema, or undefined when clients can render it. */
export function formProblem(schema: unknown): string | undefined {
  if (!isJsonObject(schema) || schema.type !== 'object' || !isJsonObject(schema.properties))
    return 'requestedSchema must be { type: "object", properties: { ... } }';
  for (const [name, field] of Object.entries(schema.properties)) {
    const problem = fieldProblem(field);
    if (problem) return `requestedSchema property "${name}" ${problem}`;
  }
  const required = schema.required;
  const properties = schema.properties;
  if (
    required !== undefined &&
    !(isStringList(required) && required.every((r) => Object.hasOwn(properties, r)))
  )
    return 'requestedSchema.required must list property names';
  return undefined;
}

/** What is wrong with one answered value, or undefined. */
function valueProblem(field: JSONObject, value: JSONValue): string | undefined {
  const limit = (n: number) =>
    (typeof field.minimum === 'number' && n < field.minimum) ||
    (typeof field.maximum === 'number' && n > field.maximum)
      ? 'is out of range'
      : undefined;
  switch (field.type) {
    case 'string': {
      if (typeof value !== 'string') return 'is not a string';
      const allowed = choices(field);
      if (allowed && !allowed.includes(value)) return 'is not one of the choices';
      if (typeof field.minLength === 'number' && value.length < field.minLength) return 'is too short';
      if (typeof field.maxLength === 'number' && value.length > field.maxLength) return 'is too long';
      return undefined;
    }
    case 'number':
      return typeof value !== 'number' || !Number.isFinite(value) ? 'is not a number' : limit(value);
    case 'integer':
      return !Number.isSafeInteger(value) ? 'is not an integer' : limit(value as number);
    case 'boolean':
      return typeof value === 'boolean' ? undefined : 'is not a boolean';
    default: {
      const allowed = choices(field.items as JSONObject) ?? [];
      if (!isStringList(value) || value.some((v) => !allowed.includes(v)))
        return 'has values that are not choices';
      if (typeof field.minItems === 'number' && value.length < field.minItems) return 'has too few choices';
      if (typeof field.maxItems === 'number' && value.length > field.maxItems) return 'has too many choices';
      return undefined;
    }
  }
}

/** What is wrong with an accepted answer's content for this form, or undefined. Names are capped client text. */
export function answerProblem(schema: JSONObject, content: unknown): string | undefined {
  if (!isJsonObject(content)) return 'the accepted answer has no content object';
  const properties = schema.properties as Record<string, JSONObject>;
  for (const [name, value] of Object.entries(content)) {
    if (!Object.hasOwn(properties, name))
      return `the answer has a field "${clientText(name, 64)}" the form does not`;
    const problem = valueProblem(properties[name]!, value as JSONValue);
    if (problem) return `the answer's field "${clientText(name, 64)}" ${problem}`;
  }
  const missing = ((schema.required as string[] | undefined) ?? []).find(
    (name) => !Object.hasOwn(content, name),
  );
  return missing === undefined ? undefined : `the answer lacks the required field "${missing}"`;
}
