/**
 * `npm start`: the MCP function's very handler behind a local HTTP server on 127.0.0.1, configured through the same
 * environment variables as in Lambda, with local-friendly defaults (loopback Host and Origin allow-lists).
 */
import { startLocalServer } from './dev-server.ts';

const env = process.env;
const port = Number(env.PORT ?? 3000);
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`PORT must be an integer from 0 to 65535 (got ${env.PORT})`);
  process.exit(1);
}
// Local defaults: only loopback names may reach the server (DNS-rebinding guard), and only local pages may call it.
env.MCP_ALLOWED_HOSTS ??= '127.0.0.1:*,localhost:*,[::1]:*';
env.MCP_ALLOWED_ORIGINS ??= 'http://localhost:*,http://127.0.0.1:*,http://[::1]:*';
env.POWERTOOLS_DEV ??= 'false';

const { handler } = await import('../../functions/mcp/handler.ts');
const local = await startLocalServer({ handler, port });
console.log(JSON.stringify({ level: 'INFO', message: 'listening', url: `${local.url}/mcp` }));

let stopping = false;
const stop = async (signal: string) => {
  if (stopping) return;
  stopping = true;
  console.log(JSON.stringify({ level: 'INFO', message: 'stopping', signal }));
  await local.close();
  process.exit(0);
};
process.on('SIGINT', () => void stop('SIGINT'));
process.on('SIGTERM', () => void stop('SIGTERM'));
