/**
 * `npm create mcp-lambda@latest my-server`: the command line of {@link createApp}. Every choice is a flag with a
 * default, so it runs the same without a terminal (CI) as in one, and asks nothing.
 */
import { spawnSync } from 'node:child_process';
import { parseArgs } from 'node:util';
import { KEPT_TOOL } from './app-files.ts';
import { createApp, CreateError } from './scaffold.ts';
import type { ApiChoice, AuthChoice } from './transforms.ts';

export const USAGE = `usage: npm create mcp-lambda@latest <folder> -- [options]

  --auth oauth|none            who may call the deployed endpoint (default oauth: sign-in through Cognito)
  --api http|rest-streaming    the API in front of the function (default http)
  --no-examples                one tool, ${KEPT_TOOL.name}, instead of the example tools
  --no-install                 skip npm install
  --help                       this text`;

const AUTH: readonly AuthChoice[] = ['oauth', 'none'];
const API: readonly ApiChoice[] = ['http', 'rest-streaming'];

/** A choice checked against the values it may take. */
function choice<T extends string>(
  flag: string,
  value: string | undefined,
  allowed: readonly T[],
): T | undefined {
  if (value === undefined || allowed.includes(value as T)) return value as T | undefined;
  throw new CreateError(`--${flag} is ${allowed.join(' or ')}, not "${value}"`);
}

/** The three commands that follow, for the folder as the user named it. */
export function nextSteps(folder: string, installed: boolean): string {
  const cd = `cd ${folder}${installed ? '' : ' && npm install'}`;
  return [
    'Next:',
    `  ${cd.padEnd(28)} # your app: src/tools/ holds its tools`,
    `  ${'npm start'.padEnd(28)} # the endpoint at http://127.0.0.1:3000/mcp, on your machine`,
    `  ${'npm run deploy'.padEnd(28)} # to your AWS account (once per account and region: npx cdk bootstrap)`,
  ].join('\n');
}

/** Runs the command; answers the exit code (1 with one line saying what to change). */
export async function main(argv: readonly string[]): Promise<number> {
  try {
    const { values, positionals } = parseArgs({
      args: [...argv],
      allowPositionals: true,
      options: {
        auth: { type: 'string' },
        api: { type: 'string' },
        'no-examples': { type: 'boolean', default: false },
        'no-install': { type: 'boolean', default: false },
        help: { type: 'boolean', default: false },
      },
    });
    if (values.help) {
      console.log(USAGE);
      return 0;
    }
    const [folder, ...extra] = positionals;
    if (!folder || extra.length) throw new CreateError(`name one new folder\n\n${USAGE}`);
    const auth = choice('auth', values.auth, AUTH) ?? 'oauth';
    const api = choice('api', values.api, API) ?? 'http';
    const files = createApp({ directory: folder, auth, api, examples: !values['no-examples'] });
    console.log(`Created ${folder} (${files.length} files; auth ${auth}, api ${api}).`);
    const install = !values['no-install'];
    if (install && spawnSync('npm', ['install'], { cwd: folder, stdio: 'inherit' }).status !== 0)
      throw new CreateError(`npm install failed in ${folder}: run it there once the cause is fixed`);
    console.log(`\n${nextSteps(folder, install)}`);
    return 0;
  } catch (error) {
    const misused = (error as { code?: string }).code?.startsWith('ERR_PARSE_ARGS_');
    if (!(error instanceof CreateError) && !misused) throw error;
    console.error(`create-mcp-lambda: ${(error as Error).message}`);
    return 1;
  }
}
