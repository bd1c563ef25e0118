import { describe, expect, it } from 'vitest';
import { definePrompt, staticResources } from '../../src/index.ts';
import { createMcpServer } from '../../src/faces/lambda.ts';
import { send } from '@mcp-lambda/dev/testing';

const cities = ['paris', 'park', 'party', 'prague'];
const many = Array.from({ length: 150 }, (_, i) => `item-${i}`);
const server = createMcpServer({
  info: { name: 'unit', version: '1.0.0' },
  completions: true,
  prompts: [
    definePrompt({
      name: 'trip',
      description: 'Plans a trip',
      arguments: [{ name: 'city', required: true }],
      handler: (args) => `Plan a trip to ${args.city}`,
      complete: (_argument, value) => cities.filter((c) => c.startsWith(value)),
    }),
  ],
  resources: [
    staticResources(
      [],
      [
        {
          uriTemplate: 'test://items/{id}',
          name: 'item',
          read: (vars) => vars.id!,
          complete: (variable, value) => (variable === 'id' ? many.filter((v) => v.startsWith(value)) : []),
        },
      ],
    ),
  ],
});

const complete = (params: Record<string, unknown>) =>
  send(server, { body: { jsonrpc: '2.0', id: 1, method: 'completion/complete', params } });

describe('completion/complete', () => {
  it.each([
    [
      'a prompt argument',
      { type: 'ref/prompt', name: 'trip' },
      'city',
      'par',
      ['paris', 'park', 'party'],
      3,
      false,
    ],
    [
      'a resource template variable',
      { type: 'ref/resource', uri: 'test://items/{id}' },
      'id',
      'item-99',
      ['item-99'],
      1,
      false,
    ],
    // Spec (utilities/completion): at most 100 values; total and hasMore describe the rest.
    [
      'a long list, cut at 100',
      { type: 'ref/resource', uri: 'test://items/{id}' },
      'id',
      '',
      many.slice(0, 100),
      150,
      true,
    ],
    ['an argument with no suggestions', { type: 'ref/prompt', name: 'trip' }, 'other', 'x', [], 0, false],
  ])('suggests values for %s', async (_name, ref, argName, value, values, total, hasMore) => {
    const res = await complete({ ref, argument: { name: argName, value } });
    expect(res.json.result).toEqual({ completion: { values, total, hasMore } });
  });

  it.each([
    ['an unknown prompt', { ref: { type: 'ref/prompt', name: 'nope' }, argument: { name: 'a', value: '' } }],
    [
      'an unknown template',
      { ref: { type: 'ref/resource', uri: 'test://nope/{x}' }, argument: { name: 'x', value: '' } },
    ],
    ['an unknown ref type', { ref: { type: 'ref/tool', name: 'x' }, argument: { name: 'a', value: '' } }],
    ['a missing argument value', { ref: { type: 'ref/prompt', name: 'trip' }, argument: { name: 'city' } }],
  ])('refuses %s with -32602', async (_name, params) => {
    expect((await complete(params)).json.error).toMatchObject({ code: -32602 });
  });
});
