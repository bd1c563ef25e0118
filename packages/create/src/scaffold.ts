/**
 * Writes a new app from the template: every file as the template has it, but the few a transform writes for the
 * app (transforms.ts) and, without the examples, the example tools left out.
 */
import { cpSync, existsSync, mkdirSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { basename, dirname, join, relative, resolve, sep } from 'node:path';
import { KEPT_TOOL, PACKED_NAMES } from './app-files.ts';
import { PACKAGE_DIR, TEMPLATE_DIR } from './template.ts';
import {
  type ApiChoice,
  type AuthChoice,
  appCdkJson,
  appInfraReadme,
  appManifest,
  appTsconfig,
  appViewsTsconfig,
  keptToolsIndex,
  keptValidators,
  toolNames,
} from './transforms.ts';

/** What {@link createApp} writes. */
export interface CreateOptions {
  /** The new app's folder; it must not exist, or be empty. Its name is the app's package name. */
  directory: string;
  /** Who may call the deployed endpoint. @default 'oauth' */
  auth?: AuthChoice;
  /** The API in front of the function. @default 'http' */
  api?: ApiChoice;
  /** Keep the example tools; `false` leaves one tool, `ping`. @default true */
  examples?: boolean;
  /** The template folder. @default - the template this package ships */
  from?: string;
  /** The version of the `@mcp-lambda` packages the app depends on. @default - this package's own version */
  version?: string;
}

/** A request the scaffolder refuses (a folder in use, a missing template): said to the user, not a bug. */
export class CreateError extends Error {
  override name = 'CreateError';
}

/** This package's version: the packages are released together, so the app gets the ones of this release. */
function ownVersion(): string {
  return (JSON.parse(readFileSync(join(PACKAGE_DIR, 'package.json'), 'utf8')) as { version: string }).version;
}

/** An npm package name made from a folder name. */
export function packageName(directory: string): string {
  const name = basename(resolve(directory))
    .toLowerCase()
    .replace(/[^a-z0-9._-]+/g, '-')
    .replace(/^[._-]+/, '');
  return name || 'mcp-server';
}

/** Every file below `dir`, relative to it, with `/` separators, in name order. */
export function filesBelow(dir: string): string[] {
  return readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)).split(sep).join('/'))
    .sort();
}

const UNPACKED: Record<string, string> = Object.fromEntries(
  Object.entries(PACKED_NAMES).map(([name, packed]) => [packed, name]),
);

/** Leaves out every example tool, its generated validators and its row of the validator table. */
function removeExamples(dir: string): void {
  const tools = join(dir, 'src', 'tools');
  const removed = readdirSync(tools).filter((file) => file !== 'index.ts' && file !== KEPT_TOOL.file);
  const names = removed.flatMap((file) => toolNames(readFileSync(join(tools, file), 'utf8')));
  for (const file of removed) rmSync(join(tools, file));
  const index = join(tools, 'index.ts');
  writeFileSync(index, keptToolsIndex(readFileSync(index, 'utf8'), [KEPT_TOOL.file], [KEPT_TOOL.name]));
  const generated = join(dir, 'src', 'generated');
  const table = join(generated, 'validators.generated.ts');
  const kept = keptValidators(readFileSync(table, 'utf8'), names);
  writeFileSync(table, kept.table);
  for (const file of readdirSync(join(generated, 'validators')))
    if (!kept.modules.has(file)) rmSync(join(generated, 'validators', file));
}

/** Writes the app; returns the files written, relative to its folder. */
export function createApp(options: CreateOptions): string[] {
  const dir = resolve(options.directory);
  if (existsSync(dir) && readdirSync(dir).length > 0)
    throw new CreateError(`${options.directory} exists and is not empty: choose a new folder name`);
  const from = options.from ?? TEMPLATE_DIR;
  if (!existsSync(from)) throw new CreateError(`no template at ${from}: build this package first`);
  const version = options.version ?? ownVersion();
  const transforms: Record<string, (text: string) => string> = {
    'package.json': (text) => appManifest(text, { name: packageName(dir), version }),
    'tsconfig.json': appTsconfig,
    'tsconfig.views.json': appViewsTsconfig,
    'cdk.json': (text) => appCdkJson(text, { auth: options.auth ?? 'oauth', api: options.api ?? 'http' }),
    'infra/README.md': appInfraReadme,
  };
  mkdirSync(dir, { recursive: true });
  for (const file of filesBelow(from)) {
    const target = join(dir, UNPACKED[file] ?? file);
    mkdirSync(dirname(target), { recursive: true });
    const transform = transforms[file];
    if (transform) writeFileSync(target, transform(readFileSync(join(from, file), 'utf8')));
    else cpSync(join(from, file), target);
  }
  if (options.examples === false) removeExamples(dir);
  return filesBelow(dir);
}
