/**
 * `npm run view`: opens any tool's view without a chat host. Start the server first (`npm start`), then open the
 * printed URL: pick a tool, give its arguments, call it, and use its view as a host would show it. MCP_URL names
 * another server (default http://127.0.0.1:3000/mcp), VIEW_PORT the host's port (default 3100; 0 for any free one).
 */
import { startViewHost } from './server.ts';

const mcpUrl = process.env.MCP_URL || 'http://127.0.0.1:3000/mcp';
const port = process.env.VIEW_PORT ? Number(process.env.VIEW_PORT) : 3100;
if (!Number.isInteger(port) || port < 0 || port > 65535) {
  console.error(`npm run view: VIEW_PORT must be an integer from 0 to 65535 (got ${process.env.VIEW_PORT})`);
  process.exit(1);
}
try {
  const host = await startViewHost({ mcpUrl, port });
  console.log(JSON.stringify({ level: 'INFO', message: 'view host listening', url: host.url, mcpUrl }));
  const stop = () => void host.close().then(() => process.exit(0));
  process.on('SIGINT', stop);
  process.on('SIGTERM', stop);
} catch (error) {
  console.error(`npm run view: cannot start: ${(error as Error).message}`);
  process.exit(1);
}
