/**
 * Whether this process resolves this project's packages to their TypeScript sources, for bundlers that must
 * resolve as it does. Inside the repository every package face has an `@mcp-lambda/source` condition, which
 * Node.js applies when started with `--conditions` (`-C`), on its command line or in NODE_OPTIONS (the repository's
 * `.npmrc` gives it to every npm script, its vitest.config.ts to every test). esbuild knows of it only when told.
 * Published packages do not carry the condition, so in an app nothing here changes a bundle.
 */
export const SOURCE_CONDITION = '@mcp-lambda/source';

const FLAG = /^(?:--conditions|-C)(?:=(.+))?$/;

/** The custom conditions in a list of Node.js options (`--conditions=x`, `--conditions x`, `-C x`). */
export function conditionsIn(options: readonly string[]): string[] {
  const found: string[] = [];
  options.forEach((option, i) => {
    const match = FLAG.exec(option);
    const value = match && (match[1] ?? options[i + 1]);
    if (value) found.push(value);
  });
  return found;
}

/** Whether this process (its own flags, or NODE_OPTIONS, which its child processes inherit) has the condition. */
export function resolvesSources(): boolean {
  const fromEnv = (process.env.NODE_OPTIONS ?? '').split(/\s+/).filter(Boolean);
  return [...conditionsIn(process.execArgv), ...conditionsIn(fromEnv)].includes(SOURCE_CONDITION);
}

/**
 * esbuild options that resolve this project's packages as this process does: to their sources with the condition,
 * with esbuild's defaults otherwise. esbuild drops its default `module` condition once others are given: it is
 * named again, so a bundle differs only in where this project's packages come from.
 */
export function esbuildConditions(): { conditions?: string[] } {
  return resolvesSources() ? { conditions: ['module', SOURCE_CONDITION] } : {};
}
