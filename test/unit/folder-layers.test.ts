import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { parseDependencyTree } from 'dpdm';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';

/**
 * Layers you can see: inside each package's src/ and the app's, the top-level folders import one another without a
 * circle, so each one can be read, tested and replaced after the folders it imports. A file directly in src/ is a
 * node of its own (`dispatcher.ts`). Every edge counts, as in import-circles.test.ts: static imports, type-only
 * imports and `import()`. Files without a circle can still make one of folders: a file of one folder imports a
 * second folder, whose files import another file of the first.
 */

const root = resolve(dirname(fileURLToPath(import.meta.url)), '../..');
const SERVER = 'packages/server/src';
const SOURCES = [
  SERVER,
  'packages/bridge/src',
  'packages/dev/src',
  'packages/cdk/src',
  'packages/create/src',
  'src',
];

/**
 * The server's request layers, top-down (docs/architecture.md, "A request, top-down"): the transport, the
 * dispatcher, the methods. Each may import the ones below it; the feature folders under them import none of them.
 */
const REQUEST_LAYERS = ['http', 'dispatcher.ts', 'methods'];
/**
 * What builds a server or a handler out of the layers, above all of them: these may import any layer. telemetry/ is
 * one of them: it wraps the dispatcher and the transport in spans (server.ts hands them over), and no feature
 * imports it (one that did would close a circle, which the circle check finds).
 */
const ASSEMBLY = [
  'faces',
  'fetch',
  'function',
  'lambda',
  'index.ts',
  'internal.ts',
  'server.ts',
  'telemetry',
];

type Graph = ReadonlyMap<string, ReadonlySet<string>>;

/** The node a file of a source folder belongs to: its top-level folder, or the file itself. */
const nodeOf = (file: string) => file.split('/')[0]!;

/** For each source folder of `context`, the imports between its top-level nodes (a node's own imports aside). */
async function folderGraphs(context: string, sources: readonly string[]): Promise<Map<string, Graph>> {
  const tree = await parseDependencyTree(
    sources.map((source) => join(context, source, '**/*.ts')),
    { context, transform: false, skipDynamicImports: false, tsconfig: join(root, 'tsconfig.json') },
  );
  const graphs = new Map<string, Map<string, Set<string>>>(sources.map((source) => [source, new Map()]));
  for (const [file, dependencies] of Object.entries(tree)) {
    const source = sources.find((s) => file.startsWith(`${s}/`));
    if (source === undefined) continue;
    const graph = graphs.get(source)!;
    const from = nodeOf(file.slice(source.length + 1));
    if (!graph.has(from)) graph.set(from, new Set());
    for (const { id } of dependencies ?? []) {
      if (!id?.startsWith(`${source}/`)) continue;
      const to = nodeOf(id.slice(source.length + 1));
      if (to !== from) graph.get(from)!.add(to);
    }
  }
  return graphs;
}

/** The strongly connected groups of more than one node (Tarjan), each sorted, in order. */
function knots(graph: Graph): string[][] {
  const index = new Map<string, number>();
  const low = new Map<string, number>();
  const stack: string[] = [];
  const onStack = new Set<string>();
  const found: string[][] = [];
  const visit = (node: string) => {
    index.set(node, index.size);
    low.set(node, index.get(node)!);
    stack.push(node);
    onStack.add(node);
    for (const next of graph.get(node) ?? []) {
      if (!index.has(next)) {
        visit(next);
        low.set(node, Math.min(low.get(node)!, low.get(next)!));
      } else if (onStack.has(next)) low.set(node, Math.min(low.get(node)!, index.get(next)!));
    }
    if (low.get(node) !== index.get(node)) return;
    const group: string[] = [];
    let member: string;
    do {
      member = stack.pop()!;
      onStack.delete(member);
      group.push(member);
    } while (member !== node);
    if (group.length > 1) found.push(group.sort());
  };
  for (const node of graph.keys()) if (!index.has(node)) visit(node);
  return found.sort((a, b) => a[0]!.localeCompare(b[0]!));
}

/** The imports of the server's request layers from below: a feature folder's, or a layer's of one above it. */
function upwardReaches(graph: Graph): string[] {
  const reaches: string[] = [];
  // A layer imports the layers below it: its place in REQUEST_LAYERS comes first.
  const downward = (from: string, to: string) =>
    REQUEST_LAYERS.includes(from) && REQUEST_LAYERS.indexOf(from) < REQUEST_LAYERS.indexOf(to);
  for (const [from, targets] of graph) {
    if (ASSEMBLY.includes(from)) continue;
    for (const to of targets)
      if (REQUEST_LAYERS.includes(to) && !downward(from, to)) reaches.push(`${from} -> ${to}`);
  }
  return reaches.sort();
}

/**
 * The server's layers as docs/architecture.md ("Inside the server library") gives them: each area named in the
 * table's second column, with its row's rank (0 the top). A file the table does not name falls in the last row
 * ("the rest"); `config*.ts` names every file so matching.
 */
function documentedLayers(nodes: readonly string[]): {
  rankOf: (node: string) => number;
  named: Set<string>;
} {
  const doc = readFileSync(join(root, 'docs/architecture.md'), 'utf8');
  const lines = doc.slice(doc.indexOf('## Inside the server library')).split('\n');
  const first = lines.findIndex((line) => line.startsWith('| layer '));
  const end = lines.findIndex((line, i) => i > first && !line.startsWith('|'));
  const rows = lines.slice(first + 2, end).map((line) => line.split('|').map((cell) => cell.trim()));
  const ranks = [...new Set(rows.map((cells) => cells[1]!))];
  const named = new Set<string>();
  const rank = new Map<string, number>();
  for (const cells of rows)
    for (const [, name] of cells[2]!.matchAll(/`([^`]+)`/g)) {
      const pattern = new RegExp(
        `^${name!.replace(/\/$/, '').replaceAll('.', '\\.').replaceAll('*', '.*')}$`,
      );
      for (const node of nodes.filter((n) => pattern.test(n))) {
        named.add(node);
        rank.set(node, ranks.indexOf(cells[1]!));
      }
    }
  return { rankOf: (node) => rank.get(node) ?? ranks.length - 1, named };
}

describe('layers between folders', () => {
  let graphs: Map<string, Graph>;
  // One parse of every source folder, shared by the cases below: a few seconds, more beside a CI run.
  beforeAll(async () => {
    graphs = await folderGraphs(root, SOURCES);
  }, 120_000);

  // The server's folders once made a knot, which issue #28 undid step by step; the last to leave it was the handshake
  // era's call state, once the transport owned the interface it uses (http/handshake-state.ts) and the neutral HTTP
  // types it shares with the features sat below both, in wire/.
  it.each(SOURCES)('%s has no circle between its folders', (source) => {
    expect(knots(graphs.get(source)!)).toEqual([]);
  });

  it(`${SERVER}: the contracts a tool author writes against sit at the bottom, importing no feature`, () => {
    // contracts/ (ToolContext, ToolError, asking, approval, views, Principal) may use only the protocol's own types and
    // the logger: every feature depends on them, so they depend on no feature.
    const below = new Set(['protocol', 'input', 'log.ts']);
    expect([...graphs.get(SERVER)!.get('contracts')!].filter((to) => !below.has(to))).toEqual([]);
  });

  it(`${SERVER}: every folder is in docs/architecture.md's table of layers, and imports go down it`, () => {
    const graph = graphs.get(SERVER)!;
    const folders = readdirSync(join(root, SERVER), { withFileTypes: true })
      .filter((entry) => entry.isDirectory())
      .map((entry) => entry.name);
    const { rankOf, named } = documentedLayers([...graph.keys()]);
    expect(
      folders.filter((folder) => !named.has(folder)),
      'a folder the table does not name',
    ).toEqual([]);
    const upward: string[] = [];
    for (const [from, targets] of graph)
      for (const to of targets) if (rankOf(to) < rankOf(from)) upward.push(`${from} -> ${to}`);
    // The one exception the table states: a contract names input/'s InputRequired.
    expect(upward.filter((edge) => edge !== 'contracts -> input')).toEqual([]);
  });

  it(`${SERVER}: no feature folder imports the transport, the dispatcher or the methods`, () => {
    expect(upwardReaches(graphs.get(SERVER)!), 'reaches up into a request layer').toEqual([]);
  });
});

describe('the checks, on samples', () => {
  const scratch = mkdtempSync(join(tmpdir(), 'folder-layers-'));
  afterAll(() => rmSync(scratch, { recursive: true, force: true }));

  it.each([
    ['a static import', `import { b } from '../b/b.ts';`],
    ['a type-only import', `import type { B } from '../b/b.ts';`],
    ['an import()', `export const load = () => import('../b/b.ts');`],
  ])('finds two folders that import each other through %s, with no circle between files', async (_, edge) => {
    const dir = mkdtempSync(join(scratch, 'case-'));
    for (const folder of ['a', 'b']) mkdirSync(join(dir, 'src', folder), { recursive: true });
    writeFileSync(join(dir, 'src/a/a.ts'), `${edge}\nexport const a = 1;\n`);
    writeFileSync(join(dir, 'src/a/a2.ts'), `export const a2 = 2;\n`);
    writeFileSync(
      join(dir, 'src/b/b.ts'),
      `import { a2 } from '../a/a2.ts';\nexport const b = a2;\nexport type B = number;\n`,
    );
    writeFileSync(join(dir, 'src/main.ts'), `import { a } from './a/a.ts';\nexport const main = a;\n`);
    const graph = (await folderGraphs(dir, ['src'])).get('src')!;
    expect(knots(graph)).toEqual([['a', 'b']]);
  });

  it('finds every group of a graph, and only groups', () => {
    const graph = (edges: Record<string, string[]>) =>
      new Map(Object.entries(edges).map(([node, targets]) => [node, new Set(targets)]));
    expect(knots(graph({ a: ['b'], b: ['c'], c: ['a', 'd'], d: [], e: ['f'], f: ['e'] }))).toEqual([
      ['a', 'b', 'c'],
      ['e', 'f'],
    ]);
    expect(knots(graph({ 'x.ts': ['y'], y: ['z'], z: [] }))).toEqual([]);
  });

  it('finds a feature folder or a lower layer that imports a request layer', () => {
    const graph = new Map(
      Object.entries({
        'server.ts': ['http'],
        http: ['dispatcher.ts', 'tools'],
        'dispatcher.ts': ['methods'],
        methods: ['http', 'tools'],
        tools: ['dispatcher.ts'],
      }).map(([node, targets]) => [node, new Set(targets)]),
    );
    expect(upwardReaches(graph)).toEqual(['methods -> http', 'tools -> dispatcher.ts']);
  });
});
