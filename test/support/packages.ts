/**
 * The repository's packages as their manifests describe them: each folder under packages/ and the faces its
 * `exports` declares. A face resolves to its TypeScript source inside this repository (the `@mcp-lambda/source`
 * condition) and to its built files everywhere else (`types`, `import`).
 */
import { spawnSync } from 'node:child_process';
import { readdirSync, readFileSync, statSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { SOURCE_CONDITION } from '@mcp-lambda/server/build';

export { SOURCE_CONDITION };

export const ROOT = resolve(fileURLToPath(new URL('../..', import.meta.url)));

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

/**
 * The repository's files as a clone has them, with `/` separators: tracked and new files, ignored ones left out
 * (`git ls-files`). In a copy without git (an unpacked archive of the repository), the files on disk
 * but for what .gitignore names: its folder lines (`name/`) and its simple globs (`*.tmp.*`).
 */
export function repositoryFiles(): string[] {
  const listed = spawnSync('git', ['ls-files', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (listed.status === 0) return listed.stdout.trim().split('\n').filter(Boolean);
  const ignore = readFileSync(join(ROOT, '.gitignore'), 'utf8')
    .split('\n')
    .map((line) => line.trim())
    .filter((line) => line && !line.startsWith('#'));
  const folders = new Set(['.git', ...ignore.filter((l) => l.endsWith('/')).map((l) => l.slice(0, -1))]);
  const globs = ignore
    .filter((l) => l.includes('*'))
    .map((l) => new RegExp(`^${l.replace(/[.]/g, '\\.').replace(/\*/g, '.*')}$`));
  const walk = (dir: string): string[] =>
    readdirSync(join(ROOT, dir), { withFileTypes: true }).flatMap((entry) => {
      const path = dir ? `${dir}/${entry.name}` : entry.name;
      if (entry.isDirectory()) return folders.has(entry.name) ? [] : walk(path);
      return globs.some((glob) => glob.test(entry.name)) ? [] : [path];
    });
  return walk('').sort();
}
