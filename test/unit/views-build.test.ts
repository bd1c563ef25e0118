import { mkdtempSync, mkdirSync, readFileSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { gzipSync } from 'node:zlib';
import { parse } from 'parse5';
import { describe, expect, it } from 'vitest';
import { buildView, viewModule, viewSources } from '@mcp-lambda/server/build';

/**
 * The views as built: each committed module is exactly what the build makes of its sources today (`npm run
 * generate`), and each document is whole, self-contained and small.
 */

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SOURCES = join(ROOT, 'src/views');
const views = viewSources(SOURCES);

/** Every element of a parsed document, depth first. */
function elements(node: any): any[] {
  return [
    node,
    ...(node.childNodes ?? []).flatMap(elements),
    ...(node.content ? elements(node.content) : []),
  ];
}

describe.each(views)('the $name view', ({ name, entry }) => {
  it('is committed as built from its sources', async () => {
    const built = await buildView(name, entry);
    const committed = readFileSync(join(ROOT, 'src/generated/views', `${name}.generated.ts`), 'utf8');
    expect(committed, 'run npm run generate').toBe(viewModule(built, `src/views/${name}`));
  });

  it('is one complete HTML document that loads nothing from anywhere, at most 100 KB gzip', async () => {
    const { html } = await buildView(name, entry);
    expect(html.startsWith('<!doctype html><html lang="en"><head><meta charset="utf-8">')).toBe(true);
    const all = elements(parse(html)).filter((n) => n.tagName);
    const scripts = all.filter((n) => n.tagName === 'script');
    expect(scripts).toHaveLength(1);
    expect(scripts[0].attrs).toEqual([]);
    expect(all.filter((n) => n.tagName === 'style')).toHaveLength(1);
    // No element names another document: no src, href, srcset, or action anywhere.
    const links = all.flatMap((n) => n.attrs.filter((a: any) => /^(src|href|srcset|action)$/.test(a.name)));
    expect(links).toEqual([]);
    expect(gzipSync(html).length).toBeLessThanOrEqual(100 * 1024);
  });

  it('follows the host theme: the spec variables with light and dark defaults', async () => {
    const { html } = await buildView(name, entry);
    expect(html).toMatch(/--color-background-primary:\s*light-dark\(/);
    expect(html).toMatch(/var\(--color-text-primary\)/);
  });

  it('carries a default for each theme variable it uses, and for no other', async () => {
    const { html } = await buildView(name, entry);
    const declared = [...html.matchAll(/(--[a-z0-9-]+):/g)].map((m) => m[1]!);
    const used = new Set([...html.matchAll(/var\((--[a-z0-9-]+)/g)].map((m) => m[1]!));
    expect(declared.filter((v) => !used.has(v))).toEqual([]);
    expect([...used].filter((v) => !declared.includes(v))).toEqual([]);
    expect(declared.length).toBeGreaterThan(10);
  });
});

describe('the view build refuses', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'views-build-'));
  const source = (folder: string, main: string, css?: string) => {
    mkdirSync(join(scratch, folder), { recursive: true });
    writeFileSync(join(scratch, folder, 'main.ts'), css ? `import './style.css';\n${main}` : main);
    if (css) writeFileSync(join(scratch, folder, 'style.css'), css);
    return join(scratch, folder, 'main.ts');
  };

  it('a stylesheet that loads from another origin', async () => {
    const entry = source('remote', 'document.title = "x";', '@import url("https://example.com/x.css");');
    await expect(buildView('remote', entry)).rejects.toThrow(/another origin/);
  });

  it('a name that cannot be a module or a title', async () => {
    await expect(buildView('Bad Name', source('bad', 'void 0;'))).rejects.toThrow(/view name/);
  });

  it('nothing in a script can close its element early', async () => {
    const { html } = await buildView('closing', source('closing', 'document.title = "</script><b>";'));
    expect(html.match(/<\/script/gi)).toHaveLength(1);
  });
});
