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

export const usage = 'usage: npm run local-user -- disable|enable [http://127.0.0.1:3000]';
const DEV_USER_SUBJECT = 'dev-user';

async function localUser(args: string[]): Promise<number> {
  const { positionals } = parseArgs({ args, allowPositionals: true, options: {} });
  const [action, url = `http://127.0.0.1:${process.env.PORT ?? 3000}`, ...extra] = positionals;
  if ((action !== 'disable' && action !== 'enable') || extra.length) {
    console.error(usage);
    return 2;
  }
  const res = await fetch(`${url.replace(/\/+$/, '')}/_local/users/${DEV_USER_SUBJECT}/${action}`, {
    method: 'POST',
    headers: { 'x-mcp-local-admin': '1' },
    signal: AbortSignal.timeout(5_000),
  });
  const body = (await res.json()) as { enabled?: boolean; error?: string };
  if (res.status !== 200) {
    console.error(`local-user failed: the local server answered ${res.status}: ${body.error ?? ''}`);
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
