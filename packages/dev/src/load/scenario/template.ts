/**
 * The templates a scenario's arguments may hold, kept minimal: `{{random.int A B}}` (an integer from A to B),
 * `{{random.uuid}}`, `{{index}}` (the flow run's number, from 0) and `{{link}}` (the uri of the last resource_link
 * a step of this flow run received). A string that is one template alone becomes its value (a number stays a
 * number); templates inside other text are written into it.
 */
import { randomInt, randomUUID } from 'node:crypto';

/** What a template reads from the flow run it is expanded in. */
export interface TemplateContext {
  index: number;
  link?: string;
}

const TEMPLATE = /\{\{\s*([^{}]*?)\s*\}\}/g;

/** What one template expression stands for, or why it stands for nothing. */
function evaluate(expression: string, context: TemplateContext | undefined): unknown {
  const [name, ...words] = expression.split(/\s+/);
  if (name === 'random.int' && words.length === 2 && words.every((w) => /^-?\d{1,15}$/.test(w))) {
    const [low, high] = words.map(Number) as [number, number];
    if (low > high) throw new Error(`{{${expression}}}: ${low} is above ${high}`);
    return context ? randomInt(low, high + 1) : 0;
  }
  if (words.length === 0 && name === 'random.uuid') return context ? randomUUID() : '';
  if (words.length === 0 && name === 'index') return context?.index ?? 0;
  if (words.length === 0 && name === 'link') {
    if (context && context.link === undefined)
      throw new Error('{{link}}: no step of this flow run has received a resource_link yet');
    return context?.link ?? '';
  }
  throw new Error(
    `{{${expression}}} is not a template: use {{random.int A B}}, {{random.uuid}}, {{index}} or {{link}}`,
  );
}

function expandString(text: string, context: TemplateContext | undefined): unknown {
  const whole = /^\{\{\s*([^{}]*?)\s*\}\}$/.exec(text);
  if (whole) return evaluate(whole[1]!, context);
  return text.replace(TEMPLATE, (_match, expression: string) => String(evaluate(expression, context)));
}

/**
 * A copy of `value` with every template in its strings expanded for `context`. Without a context it only checks
 * them (throwing on the first that is not a template), as the scenario is read.
 */
export function expand(value: unknown, context?: TemplateContext): unknown {
  if (typeof value === 'string') return value.includes('{{') ? expandString(value, context) : value;
  if (Array.isArray(value)) return value.map((item) => expand(item, context));
  if (typeof value === 'object' && value !== null) {
    return Object.fromEntries(Object.entries(value).map(([key, item]) => [key, expand(item, context)]));
  }
  return value;
}
