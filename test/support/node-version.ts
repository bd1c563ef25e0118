/**
 * The Node.js the tests and scripts run on is the one that started them (`process.execPath`): the project ships no
 * Node binary. Whatever needs the Lambda runtime's major version (the bundle test, the conformance suites, the
 * benchmarks) asks for it here and stops with a clear message on an older Node.
 */
import { NODE_TARGET } from '@mcp-lambda/cdk/bundling';

/** Node.js major of the Lambda runtime the functions are built for (`node22` → 22); `.nvmrc` names the same. */
const LAMBDA_NODE_MAJOR = Number(NODE_TARGET.replace(/^node/, ''));

/** Major version of this process's Node.js. */
const currentNodeMajor = (): number => Number(process.versions.node.split('.')[0]);

/**
 * This process's Node.js binary, for child processes that must run on the Lambda runtime's major version.
 * Throws, naming `purpose`, when this Node.js is older.
 */
export function lambdaNode(purpose: string): string {
  if (currentNodeMajor() < LAMBDA_NODE_MAJOR) {
    throw new Error(
      `${purpose} needs Node.js ${LAMBDA_NODE_MAJOR} or newer (the Lambda runtime's major version), but this is ` +
        `Node.js ${process.versions.node}. Switch to the version in .nvmrc (for example \`nvm use\`) and run it again.`,
    );
  }
  return process.execPath;
}
