import { readdirSync, readFileSync } from 'node:fs';
import { Ajv2020 } from 'ajv/dist/2020.js';
import { describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/index.ts';
import { validators as generated } from '../../src/generated/validators.generated.ts';
import { generateValidatorModules, schemaHash } from '@mcp-lambda/server/build';
import { ToolRegistry } from '../../packages/server/src/tools/registry.ts';
import { AJV_OPTIONS, compileSchema, describeErrors } from '../../packages/server/src/tools/validation.ts';
import type { PrecompiledValidators, Validator } from '@mcp-lambda/server/lambda';

const validators: PrecompiledValidators = generated;

const registry = new ToolRegistry(tools, { defaultTimeoutMs: 1000 });

/** The generated validator of one entry, loaded. */
async function load(key: string): Promise<Validator> {
  const entry = validators[key]!;
  return 'validate' in entry ? entry.validate : (await entry.load()).validate;
}

describe('precompiled validators', () => {
  it('the committed validator modules match the tools (run `npm run generate` when this fails)', () => {
    const read = (path: string) =>
      readFileSync(new URL(`../../src/generated/${path}`, import.meta.url), 'utf8');
    const generated = generateValidatorModules(tools);
    expect(read('validators.generated.ts')).toBe(generated.table);
    const folder = new URL('../../src/generated/validators/', import.meta.url);
    expect(readdirSync(folder).sort()).toEqual(Object.keys(generated.modules).sort());
    for (const [name, source] of Object.entries(generated.modules))
      expect(read(`validators/${name}`)).toBe(source);
  });

  it('each validator is a module of its own, loaded on first use', async () => {
    const entry = validators['safe_divide#input']!;
    expect('load' in entry).toBe(true);
    const { validate } = await (entry as { load: () => Promise<{ validate: Validator }> }).load();
    expect(validate({ a: 1, b: 2 })).toBe(true);
  });

  it('every example tool schema has a precompiled validator with a matching hash', () => {
    for (const tool of registry.listed) {
      expect(validators[`${tool.name}#input`]?.hash).toBe(schemaHash(tool.inputSchema));
      if (tool.outputSchema)
        expect(validators[`${tool.name}#output`]?.hash).toBe(schemaHash(tool.outputSchema));
    }
  });

  it('a precompiled validator is used only while its schema hash matches', async () => {
    const schema = registry.listed.find((t) => t.name === 'safe_divide')!.inputSchema;
    const precompiled = await load('safe_divide#input');
    expect(await compileSchema('safe_divide#input', schema, validators)).toBe(precompiled);
    const changed = { ...schema, description: 'changed' };
    expect(await compileSchema('safe_divide#input', changed, validators)).not.toBe(precompiled);
  });

  it('precompiled and run-time validators give the same verdicts and messages', async () => {
    const ajv = new Ajv2020(AJV_OPTIONS);
    const samples: Record<string, unknown[]> = {
      safe_divide: [{ a: 1, b: 2 }, { a: 1 }, { a: '1', b: 2 }, { a: 1, b: 2, c: 3 }, [], null],
      text_stats: [{ text: 'x' }, { text: 'x', top: 0 }, { text: 'x', top: 1.5 }, {}],
      render_chart: [{ values: [1, 2] }, { values: [] }, { values: [-1] }, { values: [1], width: 99999 }],
      generate_report: [{}, { rows: 0 }, { rows: 'ten' }],
      ping: [{}, { extra: true }],
    };
    for (const [name, inputs] of Object.entries(samples)) {
      const schema = registry.listed.find((t) => t.name === name)!.inputSchema;
      const runtime = ajv.compile(schema);
      const pre = await load(`${name}#input`);
      for (const input of inputs) {
        expect(pre(input), `${name} ${JSON.stringify(input)}`).toBe(runtime(input));
        expect(describeErrors(pre.errors)).toBe(describeErrors(runtime.errors));
      }
    }
  });
});
