/**
 * The repository's packages as their manifests describe them: each folder under packages/ and the faces its
 * `exports` declares. A face resolves to its TypeScript source inside this repository (the `@mcp-lambda/source`
 * condition) and to its built files everywhere else (`types`, `import`).
 */
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));
export const SOURCE_CONDITION = '@mcp-lambda/source';

export interface FaceTargets {
  [SOURCE_CONDITION]: string;
  types: string;
  import: string;
}

export interface PackageInfo {
  /** The folder name under packages/. */
  folder: string;
  dir: string;
  // The manifest as parsed: its shape is what the tests check.
  manifest: Record<string, unknown> & { name: string; exports: Record<string, FaceTargets> };
}

/** A package's name on the registry: `@mcp-lambda/<folder>`, but the scaffolder, named as `npm create` needs. */
export const npmName = (folder: string): string =>
  folder === 'create' ? 'create-mcp-lambda' : `@mcp-lambda/${folder}`;

/** Every package folder (packages/<name>/package.json), in name order. */
export function packages(): PackageInfo[] {
  return readdirSync(join(ROOT, 'packages'))
    .filter((folder) => statSync(join(ROOT, 'packages', folder)).isDirectory())
    .sort()
    .map((folder) => {
      const dir = join(ROOT, 'packages', folder);
      return { folder, dir, manifest: JSON.parse(readFileSync(join(dir, 'package.json'), 'utf8')) };
    });
}

/** A face's source file, relative to its package folder, as the package's `exports` names it. */
export function sourceOf(targets: FaceTargets): string {
  return targets[SOURCE_CONDITION];
}
