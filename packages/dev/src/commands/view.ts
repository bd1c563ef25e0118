/**
 * `npm run view`: opens any tool's view without a chat host. Start the server first (`npm start`), then open the
 * printed URL: pick a tool, give its arguments, call it, and use its view as a host would show it. MCP_URL names
 * another server (default http://127.0.0.1:3000/mcp), VIEW_PORT the host's port (default 3100; 0 for any free one).
 */
import { startViewHost } from '../view-host/server.ts';

export const usage =
  'usage: npm run view\n' +
  '  A page on which to call any tool of a running npm start and use its view; MCP_URL names another server\n' +
  "  (default http://127.0.0.1:3000/mcp), VIEW_PORT the page's port (default 3100).";

/** The command: starts the view host, which runs until a signal stops it; a start-up problem is one line. */
export async function main(args: string[]): Promise<number | undefined> {
  if (args.length) {
    console.error(usage);
    return 2;
  }
  const mcpUrl = process.env.MCP_URL || 'http://127.0.0.1:3000/mcp';
  const raw = process.env.VIEW_PORT;
  const port = !raw ? 3100 : /^\d+$/.test(raw) ? Number(raw) : NaN;
  if (!Number.isInteger(port) || port < 0 || port > 65535) {
    console.error(
      `npm run view: VIEW_PORT must be an integer from 0 to 65535 (got ${JSON.stringify(raw?.slice(0, 40))})`,
    );
    return 1;
  }
  try {
    const host = await startViewHost({ mcpUrl, port });
    console.log(JSON.stringify({ level: 'INFO', message: 'view host listening', url: host.url, mcpUrl }));
    const stop = () => void host.close().then(() => process.exit(0));
    process.on('SIGINT', stop);
    process.on('SIGTERM', stop);
    return undefined;
  } catch (error) {
    console.error(`npm run view: cannot start: ${(error as Error).message}`);
    return 1;
  }
}
