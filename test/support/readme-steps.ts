/**
 * README's "Add a tool", read as steps a test can do: the example tool's file and code, and the list it is added to.
 * The registry tier (test/registry) does them in an app made by `npm create mcp-lambda`, as a user does, so a README
 * that changes them changes what runs there, and a README that no longer shows them fails it.
 */
import { codeBlocks } from './markdown.ts';

const SECTION = 'Add a tool';

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
