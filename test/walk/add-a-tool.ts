/**
 * `npm run check:add-a-tool`: README's "Add a tool", done for real as a new user does it, on a copy of the
 * repository outside it: its set-up command, the example tool written where its first line says, the numbered steps
 * (add it to the list, `npm run generate`, `npm test`: the app's tests, see below). Exits with `npm test`'s status,
 * so a test that breaks when a user adds README's own tool fails CI. The steps are read from README, so a README that changes them changes what
 * runs here; a README that no longer shows them fails this check.
 *
 * Usage: npm run check:add-a-tool [-- --keep]   (--keep leaves the copy in place and prints where it is)
 */
import { spawnSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';
import { fileURLToPath } from 'node:url';
import { codeBlocks } from '../support/markdown.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const SECTION = 'Add a tool';

/** Runs a command in the copy with its output shown; stops the check when it fails. */
function run(cwd: string, command: string, args: string[]): void {
  console.log(`\n$ ${[command, ...args].join(' ')}`);
  const result = spawnSync(command, args, { cwd, stdio: 'inherit', env: process.env });
  if (result.status !== 0) throw new Error(`${command} ${args.join(' ')} exited with ${result.status}`);
}

/** The repository as a clone holds it: tracked files and new ones git does not ignore, nothing built or installed. */
function copyRepository(to: string): void {
  const listed = spawnSync('git', ['ls-files', '-z', '--cached', '--others', '--exclude-standard'], {
    cwd: ROOT,
    encoding: 'utf8',
  });
  if (listed.status !== 0) throw new Error(`git ls-files failed: ${listed.stderr}`);
  for (const file of listed.stdout.split('\0').filter(Boolean)) {
    if (!existsSync(join(ROOT, file))) continue; // deleted in the work tree, not yet committed
    mkdirSync(dirname(join(to, file)), { recursive: true });
    cpSync(join(ROOT, file), join(to, file));
  }
}

/** What README's section tells a user to do: the example's path and code, and the list the tool is added to. */
export function readmeSteps(readme: string): { path: string; code: string; exported: string; list: string } {
  const start = readme.indexOf(`\n## ${SECTION}\n`);
  if (start < 0) throw new Error(`README has no "${SECTION}" section`);
  const section = readme.slice(start, readme.indexOf('\n## ', start + 1));
  const block = codeBlocks(readme).find((b) => b.section === SECTION && b.code.includes('defineTool('));
  const path = block && /^\/\/ (\S+\.ts)\n/.exec(block.code)?.[1];
  const exported = block && /export const (\w+) = defineTool\(/.exec(block.code)?.[1];
  const list = /add it to the list in `([^`]+)`/.exec(section)?.[1];
  const steps = ['`npm run generate`', '`npm test`'].filter((step) => !section.includes(step));
  if (!block || !path || !exported || !list || steps.length > 0)
    throw new Error(
      `README's "${SECTION}" no longer shows a tool in a ts block whose first line names its file, ` +
        `"add it to the list in \`…\`", \`npm run generate\` and \`npm test\`: update this check with it`,
    );
  return { path, code: block.code, exported, list };
}

/** Step 1: an import of the new tool beside the others, and the tool at the end of the list. */
export function addToList(source: string, exported: string, importPath: string): string {
  const imports = [...source.matchAll(/^import .*;$/gm)];
  const last = imports.at(-1);
  const end = source.lastIndexOf('];');
  if (!last || end < 0) throw new Error('the tool list has no imports or no closing "];"');
  const afterImports = last.index + last[0].length;
  return (
    source.slice(0, afterImports) +
    `\nimport { ${exported} } from '${importPath}';` +
    source.slice(afterImports, end) +
    `  ${exported},\n` +
    source.slice(end)
  );
}

function main(): void {
  const keep = process.argv.includes('--keep');
  const copy = mkdtempSync(join(tmpdir(), 'mcp-lambda-add-a-tool-'));
  let passed = false;
  try {
    copyRepository(copy);
    const steps = readmeSteps(readFileSync(join(copy, 'README.md'), 'utf8'));
    run(copy, 'npm', ['install', '--no-audit', '--no-fund', '--prefer-offline']);
    console.log(`\nREADME "${SECTION}": writing ${steps.path} and adding ${steps.exported} to ${steps.list}`);
    writeFileSync(join(copy, steps.path), `${steps.code}\n`);
    const listFile = join(copy, steps.list);
    let from = relative(dirname(listFile), join(copy, steps.path)).split('\\').join('/');
    if (!from.startsWith('.')) from = `./${from}`;
    writeFileSync(listFile, addToList(readFileSync(listFile, 'utf8'), steps.exported, from));
    run(copy, 'npm', ['run', 'generate']);
    // `npm test` over the copy, less the packages' own suites: the copy differs from the repository only in the
    // app's files, which no package test may import (test/unit/structure.test.ts), and CI has just run those
    // suites on these very package files. What a user's tool can turn red is the app's tests, all of which run.
    // The packed-packages test goes too: it builds and packs the package files alone, which the copy leaves as
    // they are (the scaffolder's test, which copies the app's files, stays).
    const packageOnly = ['packages/**', 'test/integration/packages.test.ts'];
    run(copy, 'npm', ['test', '--', ...packageOnly.flatMap((glob) => ['--exclude', glob])]);
    passed = true;
    console.log(`\nREADME "${SECTION}": ${steps.exported} added as README says, and npm test passed`);
  } finally {
    if (keep || !passed) console.log(`the copy stays at ${copy}`);
    else rmSync(copy, { recursive: true, force: true });
  }
}

if (import.meta.url === `file://${process.argv[1]}`) {
  try {
    main();
  } catch (error) {
    console.error(`check:add-a-tool: ${(error as Error).message}`);
    process.exitCode = 1;
  }
}
