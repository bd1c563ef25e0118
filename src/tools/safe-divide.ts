import { defineTool, ToolError } from '@mcp-lambda/server';

/** Shows an execution error the model can act on: dividing by zero returns `isError: true` with advice. */
export const safeDivide = defineTool({
  name: 'safe_divide',
  title: 'Safe divide',
  description: 'Divides a by b. Fails with an explanation when b is 0.',
  inputSchema: {
    type: 'object',
    properties: {
      a: { type: 'number', description: 'Dividend' },
      b: { type: 'number', description: 'Divisor (must not be 0)' },
    },
    required: ['a', 'b'],
    additionalProperties: false,
  },
  annotations: { readOnlyHint: true, idempotentHint: true, openWorldHint: false },
  handler: ({ a, b }) => {
    if (b === 0)
      throw new ToolError(
        'Cannot divide by zero: "b" must be a non-zero number. Call safe_divide again with another divisor.',
      );
    const quotient = a / b;
    if (!Number.isFinite(quotient)) {
      throw new ToolError(
        `The quotient of ${a} / ${b} is too large to represent as a number. Scale the inputs down.`,
      );
    }
    return String(quotient);
  },
});
