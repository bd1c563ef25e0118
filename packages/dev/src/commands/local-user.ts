/**
 * `npm run local-user -- disable|enable`: disables or re-enables the development user at the embedded sign-in
 * provider of a running `MCP_AUTH_MODE=oauth npm start`, as an administrator would in Cognito. Disabled, the user
 * cannot sign in, and the bridge refuses their next refresh and ends that session (it asks the provider each time);
 * re-enabled, they sign in again.
 *
 *   npm run local-user -- disable [http://127.0.0.1:3000]
 *   npm run local-user -- enable [http://127.0.0.1:3000]
 */
import { parseArgs } from 'node:util';
import { localServer, postLocalAdmin, shown } from './local-admin.ts';

export const usage = 'usage: npm run local-user -- disable|enable [http://127.0.0.1:3000]';
const DEV_USER_SUBJECT = 'dev-user';

async function localUser(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [action, url, ...extra] = positionals;
  if ((action !== 'disable' && action !== 'enable') || extra.length) {
    console.error(usage);
    return 2;
  }
  const server = localServer(url);
  const { status, body } = await postLocalAdmin(server, `/_local/users/${DEV_USER_SUBJECT}/${action}`);
  if (status !== 200 || typeof body.enabled !== 'boolean') {
    console.error(`local-user failed: ${server.origin} answered ${status}: ${shown(body.error ?? '')}`);
    return 1;
  }
  console.log(`The development user (${DEV_USER_SUBJECT}) is now ${body.enabled ? 'enabled' : 'disabled'}.`);
  return 0;
}

/** The command: its exit status; a failure to reach the server is one line, with a hint. */
export async function main(args: string[]): Promise<number> {
  try {
    return await localUser(args);
  } catch (error) {
    console.error(
      `local-user failed: ${error instanceof Error ? error.message : String(error)} (is npm start running?)`,
    );
    return 1;
  }
}
