/**
 * The app's tools, whatever src/tools/index.ts lists: each is served, and its generated validators are current.
 * No test here names a tool, so adding, renaming or removing one keeps them green.
 */
import { readdirSync, readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { generateValidatorModules } from '@mcp-lambda/server/build';
import { createMcpServer } from '@mcp-lambda/server/lambda';
import { send } from '@mcp-lambda/dev/testing';
import { tools } from '../../src/tools/index.ts';
import { validators } from '../../src/generated/validators.generated.ts';

const GENERATED = new URL('../../src/generated/', import.meta.url);

describe("the app's tools", () => {
  it('each has a name of its own and a description', () => {
    expect(new Set(tools.map((tool) => tool.name)).size).toBe(tools.length);
    for (const tool of tools) expect(tool.description, tool.name).toBeTruthy();
  });

  it('the generated validators match the tools (run `npm run generate` when this fails)', () => {
    const generated = generateValidatorModules(tools);
    expect(readFileSync(new URL('validators.generated.ts', GENERATED), 'utf8')).toBe(generated.table);
    expect(readdirSync(new URL('validators/', GENERATED)).sort()).toEqual(
      Object.keys(generated.modules).sort(),
    );
    for (const [name, source] of Object.entries(generated.modules))
      expect(readFileSync(new URL(`validators/${name}`, GENERATED), 'utf8'), name).toBe(source);
  });

  it('tools/list lists each of them', async () => {
    const server = createMcpServer({ info: { name: 'app', version: '0.0.0' }, tools, validators });
    const res = await send(server, { body: { jsonrpc: '2.0', id: 1, method: 'tools/list', params: {} } });
    const listed = (res.json.result.tools as { name: string }[]).map((tool) => tool.name);
    expect(listed).toEqual(expect.arrayContaining(tools.map((tool) => tool.name)));
  });
});
