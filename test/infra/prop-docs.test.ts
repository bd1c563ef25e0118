import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { describe, expect, it } from 'vitest';

const INFRA = fileURLToPath(new URL('../../infra/', import.meta.url));
const SOURCES = [
  ...readdirSync(join(INFRA, 'constructs')).map((name) => join('constructs', name)),
  'stack.ts',
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
  it.each(SOURCES)('every optional prop in infra/%s states its default with @default', (file) => {
    const props = optionalProps(readFileSync(join(INFRA, file), 'utf8'));
    expect(props.length).toBeGreaterThan(0);
    expect(props.filter((p) => !/@default\b/.test(p.doc)).map((p) => p.name)).toEqual([]);
  });
});
