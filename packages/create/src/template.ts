/**
 * The template this package ships: the repository root's app files as they are (app-files.ts), and the files only
 * an app has (this package's `app/` folder). `npm run build` makes it into `dist/template/`, beside the built
 * modules, so the published package carries one copy of the root's files and the repository keeps none.
 */
import { cpSync, existsSync, rmSync } from 'node:fs';
import { join, resolve } from 'node:path';
import { fileURLToPath } from 'node:url';
import { APP_ONLY, APP_PATHS, PACKED_NAMES } from './app-files.ts';

/** This package's folder (src/ and dist/ both sit one level below it). */
export const PACKAGE_DIR = fileURLToPath(new URL('..', import.meta.url));

/** Where the built template lives in this package. */
export const TEMPLATE_DIR = join(PACKAGE_DIR, 'dist', 'template');

/** Copies the app files of the repository at `root` into `out` (emptied first); returns `out`. */
export function makeTemplate(root: string, out: string): string {
  rmSync(out, { recursive: true, force: true });
  for (const path of APP_PATHS) {
    if (!existsSync(join(root, path))) throw new Error(`${path} is missing from ${root}`);
    cpSync(join(root, path), join(out, PACKED_NAMES[path] ?? path), { recursive: true });
  }
  for (const file of APP_ONLY) cpSync(join(PACKAGE_DIR, 'app', file), join(out, file));
  return out;
}

// `npm run build` in this package: node dist/template.js makes dist/template/ from the repository root.
if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url))
  makeTemplate(resolve(PACKAGE_DIR, '../..'), TEMPLATE_DIR);
