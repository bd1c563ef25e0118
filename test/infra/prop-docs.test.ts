import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
/** The construct sources (packages/cdk) and the app's stack. */
const SOURCES = [
  ...readdirSync(join(ROOT, 'packages/cdk/src'), { recursive: true, encoding: 'utf8' })
    .filter((name) => name.endsWith('.ts'))
    .map((name) => join('packages/cdk/src', name)),
  'infra/stack.ts',
];

/** Each optional property of the exported `…Props` interfaces, with the doc comment right above it. */
function optionalProps(source: string): { name: string; doc: string }[] {
  const found: { name: string; doc: string }[] = [];
  const interfaces = source.matchAll(/^export interface (\w+Props)\b[\s\S]*?^}$/gm);
  const property = /(\/\*\*(?:(?!\*\/)[\s\S])*\*\/)?\s*readonly (\w+)\?:/g;
  for (const [body, name] of interfaces) {
    for (const match of body.matchAll(property))
      found.push({ name: `${name}.${match[2]}`, doc: match[1] ?? '' });
  }
  return found;
}

describe('construct props documentation', () => {
  const documented = SOURCES.filter(
    (file) => optionalProps(readFileSync(join(ROOT, file), 'utf8')).length > 0,
  );

  it('reads the props of every construct', () => {
    expect(documented).toEqual(
      expect.arrayContaining([
        'packages/cdk/src/endpoint/props.ts',
        'packages/cdk/src/mcp-monitoring.ts',
        'infra/stack.ts',
      ]),
    );
  });

  it.each(documented)('every optional prop in %s states its default with @default', (file) => {
    const props = optionalProps(readFileSync(join(ROOT, file), 'utf8'));
    expect(props.filter((p) => !/@default\b/.test(p.doc)).map((p) => p.name)).toEqual([]);
  });
});
