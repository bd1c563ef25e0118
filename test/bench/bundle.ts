/**
 * Builds every artifact the benchmark runs: the deployable functions and the SDK baselines with the stack's own
 * esbuild options (`infra/bundling.ts`), and the small child-process runners (not minified, same module format).
 */
import { existsSync } from 'node:fs';
import { mkdir } from 'node:fs/promises';
import { join, resolve } from 'node:path';
import { gzipSync } from 'node:zlib';
import { readFileSync } from 'node:fs';
import { build, type Metafile } from 'esbuild';
import { esbuildOptions, FUNCTION_ENTRIES } from '../../infra/bundling.ts';

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
  file: string;
  /** Minified size in bytes (what Lambda loads). */
  bytes: number;
  gzipBytes: number;
  /** Largest contributors first. */
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
  const [top, second] = input.split('/');
  return top === 'src' || top === 'functions' || top === 'test' ? `${top}/${second}` : (top ?? input);
}

/** Sums a bundle's bytes per package from esbuild's metafile. */
export function bundleParts(
  metafile: Metafile,
  outfile: string,
): { parts: BundlePart[]; external: string[] } {
  const output = Object.entries(metafile.outputs).find(([path]) => resolve(path) === resolve(outfile))?.[1];
  if (!output) throw new Error(`esbuild metafile has no output ${outfile}`);
  const sums = new Map<string, number>();
  for (const [input, { bytesInOutput }] of Object.entries(output.inputs)) {
    const name = partName(input);
    sums.set(name, (sums.get(name) ?? 0) + bytesInOutput);
  }
  const external = new Set<string>();
  for (const item of output.imports) if (item.external) external.add(item.path);
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
  const file = join(outDir, `${name}.mjs`);
  const result = await build(esbuildOptions(entry, file));
  const { parts, external } = bundleParts(result.metafile!, file);
  const code = readFileSync(file);
  return { label, entry, file, bytes: code.length, gzipBytes: gzipSync(code).length, parts, external };
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
    const file = join(outDir, `child-${name}.mjs`);
    const options = esbuildOptions(entry, file);
    await build({ ...options, minify: false, sourcemap: false, metafile: false });
    children[name] = file;
  }
  return { servers, resources, children };
}
