/**
 * Builds every artifact the benchmark runs: the deployable functions and the SDK baselines with the stack's own
 * esbuild options (`packages/cdk/src/bundling.ts`), and the small child-process runners (not minified, same module format).
 */
import { existsSync } from 'node:fs';
import { mkdir, rm } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, FUNCTION_ENTRIES } from '@mcp-lambda/cdk/bundling';

/** The servers under test. */
export const SERVERS = {
  ours: { label: 'ours', entry: FUNCTION_ENTRIES.mcp },
  sdk2: { label: 'SDK 2.x createMcpHandler', entry: 'test/bench/baselines/sdk2.ts' },
  sdk1: { label: 'SDK 1.x stateless transport', entry: 'test/bench/baselines/sdk1.ts' },
} as const;

export type ServerId = keyof typeof SERVERS;

/** The child-process runners. */
const CHILDREN = {
  coldStart: 'test/bench/children/cold-start.ts',
  warm: 'test/bench/children/warm.ts',
  serve: 'test/bench/children/serve.ts',
} as const;

/** One part of a bundle: a package (or our own code), and the bytes it adds to the minified output. */
export interface BundlePart {
  name: string;
  bytes: number;
}

/** A built bundle and what it holds. */
export interface BundleInfo {
  label: string;
  entry: string;
  /** The handler module (`index.mjs`) Lambda imports; chunks lie beside it. */
  file: string;
  /** Minified bytes loaded at cold start: the handler module and the chunks it imports statically. */
  bytes: number;
  /** Minified bytes of every file deployed (the handler module and all its chunks). */
  totalBytes: number;
  /** Chunks loaded only when a request needs them. */
  lazyChunks: number;
  /** Gzip size of every file deployed (roughly what the deployment package weighs). */
  gzipBytes: number;
  /** Largest contributors first, in the code loaded at cold start. */
  parts: BundlePart[];
  /** Modules left out of the bundle and imported at run time (e.g. the AWS SDK). */
  external: string[];
}

/** Names the package an input file belongs to: `ajv`, `@aws-lambda-powertools/logger`, or our own folders. */
export function partName(input: string): string {
  const at = input.lastIndexOf('node_modules/');
  if (at >= 0) {
    const rest = input.slice(at + 'node_modules/'.length).split('/');
    return rest[0]!.startsWith('@') ? `${rest[0]}/${rest[1]}` : rest[0]!;
  }
  const [top, second, , fourth] = input.split('/');
  if (top === 'packages') return `${second}/${fourth}`;
  return top === 'src' || top === 'functions' || top === 'test' ? `${top}/${second}` : (top ?? input);
}

/** The outputs a handler module loads before it runs: itself and, transitively, the chunks it imports statically. */
export function startupOutputs(metafile: Metafile, entryOutput: string): string[] {
  const byPath = new Map(
    Object.entries(metafile.outputs).map(([path, out]) => [resolve(path), [path, out] as const]),
  );
  const seen = new Set<string>();
  const visit = (path: string) => {
    const found = byPath.get(resolve(path));
    if (!found || seen.has(found[0])) return;
    seen.add(found[0]);
    for (const item of found[1].imports)
      if (item.kind === 'import-statement' && !item.external) visit(item.path);
  };
  visit(entryOutput);
  return [...seen];
}

/** Sums the bytes per package of some outputs of a build, from esbuild's metafile. */
export function bundleParts(
  metafile: Metafile,
  outfiles: string | readonly string[],
): { parts: BundlePart[]; external: string[] } {
  const wanted = new Set((typeof outfiles === 'string' ? [outfiles] : outfiles).map((f) => resolve(f)));
  const outputs = Object.entries(metafile.outputs).filter(([path]) => wanted.has(resolve(path)));
  if (outputs.length === 0) throw new Error(`esbuild metafile has no output ${[...wanted].join(', ')}`);
  const sums = new Map<string, number>();
  const external = new Set<string>();
  for (const [, output] of outputs) {
    for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
      const name = partName(input);
      sums.set(name, (sums.get(name) ?? 0) + bytesInOutput);
    }
    for (const item of output.imports) if (item.external) external.add(item.path);
  }
  return {
    parts: [...sums.entries()].map(([name, bytes]) => ({ name, bytes })).sort((a, b) => b.bytes - a.bytes),
    external: [...external].sort(),
  };
}

async function bundleFunction(
  label: string,
  entry: string,
  outDir: string,
  name: string,
): Promise<BundleInfo> {
  const dir = join(outDir, name);
  await rm(dir, { recursive: true, force: true });
  const result = await build(esbuildOptions(entry, dir));
  const metafile = result.metafile!;
  const file = join(dir, 'index.mjs');
  const code = Object.keys(metafile.outputs).filter((path) => path.endsWith('.mjs'));
  const startup = startupOutputs(metafile, file);
  const { parts, external } = bundleParts(metafile, startup);
  const bytesOf = (paths: readonly string[]) => paths.reduce((n, p) => n + metafile.outputs[p]!.bytes, 0);
  return {
    label,
    entry,
    file,
    bytes: bytesOf(startup),
    totalBytes: bytesOf(code),
    lazyChunks: code.length - startup.length,
    gzipBytes: gzipSync(Buffer.concat(code.map((p) => readFileSync(p)))).length,
    parts,
    external,
  };
}

/** Every artifact of one benchmark run. */
export interface Artifacts {
  servers: Record<ServerId, BundleInfo>;
  /** The companion resources function, when its entry exists; undefined otherwise. */
  resources: BundleInfo | undefined;
  children: Record<keyof typeof CHILDREN, string>;
}

/** Bundles the functions, the baselines and the runners into `outDir`. */
export async function buildArtifacts(outDir: string): Promise<Artifacts> {
  await mkdir(outDir, { recursive: true });
  const servers = {} as Record<ServerId, BundleInfo>;
  for (const [id, server] of Object.entries(SERVERS) as [ServerId, (typeof SERVERS)[ServerId]][]) {
    servers[id] = await bundleFunction(server.label, server.entry, outDir, `fn-${id}`);
  }
  const resources = existsSync(FUNCTION_ENTRIES.resources)
    ? await bundleFunction('ours: resources function', FUNCTION_ENTRIES.resources, outDir, 'fn-resources')
    : undefined;
  const children = {} as Record<keyof typeof CHILDREN, string>;
  for (const [name, entry] of Object.entries(CHILDREN) as [keyof typeof CHILDREN, string][]) {
    // One file each: the runners are scaffolding, not what is measured.
    const dir = join(outDir, `child-${name}`);
    const options = esbuildOptions(entry, dir);
    await build({ ...options, splitting: false, minify: false, sourcemap: false, metafile: false });
    children[name] = join(dir, 'index.mjs');
  }
  return { servers, resources, children };
}
