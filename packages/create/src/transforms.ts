/**
 * What differs between the repository's root and an app made from it, as pure functions of the root's file text.
 * Inside the repository the app resolves the packages to their sources (a workspace, the `@mcp-lambda/source`
 * condition, `packages/` in its configuration); an app depends on the published packages at one version instead.
 */
import { APP_DEPENDENCIES, APP_DEV_DEPENDENCIES, APP_SCRIPTS } from './app-files.ts';

/** Who may call the deployed endpoint: OAuth through the authorization bridge and Cognito, or anyone. */
export type AuthChoice = 'oauth' | 'none';
/** The API in front of the function: an HTTP API, or a REST API that streams. */
export type ApiChoice = 'http' | 'rest-streaming';

type Json = Record<string, unknown>;

/** A path of the repository's configuration that names its packages, not the app's files. */
const repositoryPath = (path: string) => /^(packages|release)(\/|$)/.test(path);

/** JSON as Prettier writes it here: two spaces, arrays of plain values on one line while they fit. */
export function formatJson(value: unknown): string {
  const text = JSON.stringify(value, null, 2).replace(
    /\[\n\s+([^[\]{}]*?)\n\s*\]/g,
    (whole, items: string, offset: number, all: string) => {
      const line = `[${items.split(/,\n\s+/).join(', ')}]`;
      const column = offset - (all.lastIndexOf('\n', offset) + 1);
      return column + line.length < 110 ? line : whole;
    },
  );
  return `${text}\n`;
}

/** The versions the root pins a package at, from either of its dependency lists. */
function rangeOf(root: Json, name: string, version: string): string {
  if (name.startsWith('@mcp-lambda/')) return `^${version}`;
  const ranges = { ...(root.dependencies as Json), ...(root.devDependencies as Json) };
  const range = ranges[name];
  if (typeof range !== 'string') throw new Error(`the root package.json has no version of ${name}`);
  return range;
}

const pick = (root: Json, names: readonly string[], version: string) =>
  Object.fromEntries(names.map((name) => [name, rangeOf(root, name, version)]));

/**
 * The app's package.json: its own name, the root's app scripts (tests run by vitest directly: the root's runner
 * brings the Lambda's Node.js for the repository's CI), and the packages at `version` instead of workspaces.
 */
export function appManifest(rootText: string, options: { name: string; version: string }): string {
  const root = JSON.parse(rootText) as Json;
  const scripts = root.scripts as Record<string, string>;
  const appScripts = Object.fromEntries(
    APP_SCRIPTS.map((name) => [name, name === 'test' ? 'vitest run' : scripts[name]]),
  );
  const missing = APP_SCRIPTS.filter((name) => appScripts[name] === undefined);
  if (missing.length) throw new Error(`the root package.json has no script ${missing.join(', ')}`);
  return formatJson({
    name: options.name,
    version: '0.1.0',
    description: 'An MCP server on AWS Lambda behind API Gateway',
    private: true,
    type: 'module',
    engines: root.engines,
    scripts: appScripts,
    dependencies: pick(root, APP_DEPENDENCIES, options.version),
    devDependencies: pick(root, APP_DEV_DEPENDENCIES, options.version),
    allowScripts: root.allowScripts,
  });
}

/** The app's tsconfig.json: the root's without the packages' sources and their resolution condition. */
export function appTsconfig(rootText: string): string {
  const config = JSON.parse(rootText) as { compilerOptions: Json; include: string[]; exclude: string[] };
  const { customConditions: _source, ...compilerOptions } = config.compilerOptions;
  return formatJson({
    ...config,
    compilerOptions,
    include: config.include.filter((path) => !repositoryPath(path)),
    exclude: config.exclude.filter((path) => !repositoryPath(path)),
  });
}

/** The app's tsconfig.views.json: its own views only (the packages' pages are checked by the packages). */
export function appViewsTsconfig(rootText: string): string {
  const config = JSON.parse(rootText) as { include: string[] };
  return formatJson({ ...config, include: config.include.filter((path) => !repositoryPath(path)) });
}

/**
 * The app's cdk.json: the root's feature flags, a watch list of its own folders, and the choices made when it was
 * created, as the context keys the app's infra reads (`readSettings` of `@mcp-lambda/cdk`).
 */
export function appCdkJson(rootText: string, choices: { auth: AuthChoice; api: ApiChoice }): string {
  const config = JSON.parse(rootText) as { watch: { include: string[] }; context: Json };
  const auth = choices.auth === 'oauth' ? { auth: 'oauth', authCognito: true } : { auth: 'none' };
  return formatJson({
    ...config,
    watch: { ...config.watch, include: config.watch.include.filter((path) => !repositoryPath(path)) },
    context: { api: choices.api, ...auth, ...config.context },
  });
}

/** The names of the tools a tool module defines (`defineTool({ name: '…'`). */
export function toolNames(source: string): string[] {
  return [...source.matchAll(/defineTool\(\{\s*name:\s*'([^']+)'/g)].map((match) => match[1]!);
}

/** The tool list of `src/tools/index.ts` with only the tools of `keptFiles` (e.g. `ping.ts`), named `keptNames`. */
export function keptToolsIndex(
  rootText: string,
  keptFiles: readonly string[],
  keptNames: readonly string[],
): string {
  const lines = rootText.split('\n').filter((line) => {
    const imported = /^import \{ \w+ \} from '\.\/([\w-]+\.ts)';$/.exec(line);
    return !imported || keptFiles.includes(imported[1]!);
  });
  return lines.join('\n').replace(/(ToolDefinition\[\] = )\[[^\]]*\]/, `$1[${keptNames.join(', ')}]`);
}

/**
 * The validator table of `src/generated/validators.generated.ts` without the removed tools' rows, and the validator
 * modules no remaining row loads (two tools with one schema share a module).
 */
export function keptValidators(
  tableText: string,
  removedTools: readonly string[],
): { table: string; modules: Set<string> } {
  const lines = tableText.split('\n').filter((line) => {
    const key = /^\s+"([^"#]+)#\w+": /.exec(line);
    return !key || !removedTools.includes(key[1]!);
  });
  const modules = new Set(
    lines.flatMap((line) => [...line.matchAll(/import\('\.\/validators\/([^']+)'\)/g)].map((m) => m[1]!)),
  );
  return { table: lines.join('\n'), modules };
}

/** What the app's infra/README.md says of the pages it names: they are the repository's, not the app's. */
export const DOCS_NOTE =
  "`docs/…` below names a page of the mcp-lambda repository's documentation, which this app was made from.";

/**
 * The app's infra/README.md: the root's, with each link that leaves the folder for the repository (its docs/, its
 * README's sections) made plain text, since an app has neither, and a line saying where those pages are.
 */
export function appInfraReadme(rootText: string): string {
  const [title, ...rest] = rootText.replace(/\[([^\]]+)\]\(\.\.\/[^)]+\)/g, '$1').split('\n');
  return [title, '', DOCS_NOTE, ...rest].join('\n');
}
