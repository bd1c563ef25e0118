import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const CONSTRUCTS = join('packages', 'cdk', 'src');
/** The constructs (every module of the cdk package that exports a `…Props` interface) and the stack. */
const SOURCES = [
  ...readdirSync(join(ROOT, CONSTRUCTS))
    .map((name) => join(CONSTRUCTS, name))
    .filter((file) => /^export interface \w+Props\b/m.test(readFileSync(join(ROOT, file), 'utf8'))),
  join('infra', 'stack.ts'),
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
  it('finds the constructs', () => {
    expect(SOURCES.length).toBeGreaterThan(5);
  });

  it.each(SOURCES)('every optional prop in %s states its default with @default', (file) => {
    const props = optionalProps(readFileSync(join(ROOT, file), 'utf8'));
    expect(props.length).toBeGreaterThan(0);
    expect(props.filter((p) => !/@default\b/.test(p.doc)).map((p) => p.name)).toEqual([]);
  });
});
