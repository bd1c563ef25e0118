/**
 * A package's manifest as users get it, made from the one in this repository. Inside the repository each face
 * resolves to its TypeScript source through the `@mcp-lambda/source` condition (tests and tools need no build); a
 * published package ships only built files, so that condition goes, with the scripts and the development
 * dependencies, which serve only this repository.
 */
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { SOURCE_CONDITION } from '@mcp-lambda/server/build';

export { SOURCE_CONDITION };

/**
 * What every package ships beside its manifest and what its `files` field lists (built code, a bin, the changelog,
 * which npm does not add by itself as it adds README and LICENSE).
 */
const DOCUMENTS = ['README.md', 'CHANGELOG.md', 'LICENSE'] as const;

/** Everything a package ships beside its manifest. */
export function shipped(manifest: Manifest): string[] {
  return [...new Set([...(manifest.files ?? []), ...DOCUMENTS])];
}

/** Package folders in dependency order: each is published after what it depends on. */
export const RELEASE_ORDER = ['server', 'bridge', 'dev', 'cdk', 'create'] as const;

export interface Manifest {
  name: string;
  version: string;
  exports: Record<string, Record<string, string>>;
  files?: string[];
  [field: string]: unknown;
}

export function readPackage(dir: string): Manifest {
  return JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) as Manifest;
}

/** The manifest users get: every other field as it is, in the same order. */
export function publishManifest(manifest: Manifest): Manifest {
  const { scripts: _scripts, devDependencies: _dev, ...rest } = manifest;
  const exports = Object.fromEntries(
    Object.entries(manifest.exports).map(([face, targets]) => {
      const { [SOURCE_CONDITION]: _source, ...built } = targets;
      return [face, built];
    }),
  );
  return { ...rest, exports };
}
