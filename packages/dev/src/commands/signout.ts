/**
 * `npm run signout -- <subject>`: signs one user out everywhere. Every session of theirs begun until now ends at its
 * next refresh, and their access tokens expire within the hour; they can sign in again at once.
 *
 *   npm run signout -- <subject> --table <AuthorizationBridgeTableName> [--region <region>]   the deployed stack
 *   npm run signout -- <subject> --local [http://127.0.0.1:3000]                       MCP_AUTH_MODE=oauth npm start
 *
 * `<subject>` is the user's `sub` at the sign-in provider (Cognito: the user's `sub` attribute), as the bridge's
 * request log and the tools' `ctx.principal.subject` show it. Deployed, it writes one item to the bridge's table
 * with your AWS credentials (dynamodb:UpdateItem on that table).
 */
import { parseArgs } from 'node:util';
import { BridgeLimits, createDynamoStore, signOutEverywhere } from '@mcp-lambda/bridge';
import { localServer, postLocalAdmin, shown } from './local-admin.ts';

export const usage =
  'usage: npm run signout -- <subject> --table <AuthorizationBridgeTableName> [--region <region>]\n' +
  '       npm run signout -- <subject> --local [http://127.0.0.1:3000]';

async function signOutLocally(subject: string, url: string | undefined): Promise<number> {
  const server = localServer(url);
  // A URL takes `.` and `..` (also encoded) for steps along the path, never for a subject.
  if (subject === '.' || subject === '..') throw new Error(`${shown(subject)} is no subject`);
  const { status, body } = await postLocalAdmin(
    server,
    `/_local/users/${encodeURIComponent(subject)}/signout`,
  );
  const at = body.signedOutAt;
  // A sign-out is now: a time a day away from this machine's clock is not one npm start made.
  if (status !== 200 || typeof at !== 'number' || Math.abs(at - Date.now() / 1000) > 86_400)
    throw new Error(`${server.origin} answered ${status}: ${shown(body.error ?? 'no sign-out time')}`);
  return at;
}

/**
 * Now by AWS's clock: the Date header of the DynamoDB endpoint the table is reached through. The bridge compares
 * the sign-out with sign-in times it took by its own clock, and this machine's may be off by minutes or hours (a
 * drifted laptop or container; the SDK corrects its request signing for such a skew, so the write would succeed).
 * Behind, the sessions begun just before the sign-out would survive it; ahead, the next sign-ins would end too.
 */
async function awsNowSeconds(region: string | undefined): Promise<number> {
  let endpoint = process.env.AWS_ENDPOINT_URL_DYNAMODB ?? process.env.AWS_ENDPOINT_URL;
  if (!endpoint) {
    const { DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
    const named = region ?? (await new DynamoDBClient({}).config.region());
    endpoint = `https://dynamodb.${named}.amazonaws.com${named.startsWith('cn-') ? '.cn' : ''}`;
  }
  const res = await fetch(endpoint, { method: 'HEAD', signal: AbortSignal.timeout(5_000) });
  const date = Date.parse(res.headers.get('date') ?? '');
  if (Number.isNaN(date)) throw new Error(`${endpoint} sent no Date header to take the time from`);
  return Math.floor(date / 1000);
}

/** Signs the subject out at the deployed bridge's table or at `npm start`; the exit status. */
async function signout(args: string[]): Promise<number> {
  const { values, positionals } = parseArgs({
    args,
    allowPositionals: true,
    options: { table: { type: 'string' }, region: { type: 'string' }, local: { type: 'boolean' } },
  });
  const [subject, localUrl, ...extra] = positionals;
  const table = values.table ?? process.env.BRIDGE_TABLE;
  if (!subject || extra.length || (values.local ? values.table : !table) || (!values.local && localUrl)) {
    console.error(usage);
    return 2;
  }
  const at = values.local
    ? await signOutLocally(subject, localUrl)
    : await signOutEverywhere(
        createDynamoStore({ tableName: table!, ...(values.region ? { region: values.region } : {}) }),
        subject,
        await awsNowSeconds(values.region),
      );
  const minutes = BridgeLimits.accessTokenTtlSeconds / 60;
  console.log(
    `Signed ${JSON.stringify(subject)} out everywhere at ${new Date(at * 1000).toISOString()}: each of their ` +
      `sessions ends at its next refresh, and access tokens already issued expire within ${minutes} minutes.`,
  );
  return 0;
}

/** The command: its exit status; a failure is one line. */
export async function main(args: string[]): Promise<number> {
  try {
    return await signout(args);
  } catch (error) {
    console.error(`signout failed: ${error instanceof Error ? error.message : String(error)}`);
    return 1;
  }
}
