/** The function entries bundle as the stack deploys them (esbuild, with the stack's own settings). */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { build } from 'esbuild';
import { afterAll, describe, expect, it } from 'vitest';
import { esbuildOptions, FUNCTION_ENTRIES } from '@mcp-lambda/cdk/bundling';

const OUT = mkdtempSync(join(tmpdir(), 'app-entries-'));
afterAll(() => rmSync(OUT, { recursive: true, force: true }));

describe("the app's function entries", () => {
  it.each(Object.entries(FUNCTION_ENTRIES))('%s (%s) bundles without errors', async (name, entry) => {
    const result = await build(esbuildOptions(entry, join(OUT, name)));
    expect(result.errors).toEqual([]);
  });
});
