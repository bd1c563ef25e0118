/**
 * The app's function entries, loaded from the app's folder (where npm runs `npm start`) by the paths of the app's
 * layout, the ones the CDK stack bundles. Each is loaded when first needed, once the environment it reads at load
 * time is complete.
 */
import { join } from 'node:path';
import { pathToFileURL } from 'node:url';
import { APP_LAYOUT } from '@mcp-lambda/server/build';
import type { StreamingEvent, StreamingHandler } from '@mcp-lambda/server/lambda';
import type { LambdaHttpHandler } from '../local/dev-server.ts';
import type { InvokedHandler } from '../local/lambda-invoke.ts';

/** Each entry, relative to the app's folder, with the name of the handler it exports. */
const ENTRIES = {
  mcp: [APP_LAYOUT.functions.mcp, 'handler'],
  mcpStreaming: [APP_LAYOUT.functions.mcpStreaming, 'streamingHandler'],
  companion: [APP_LAYOUT.functions.companion, 'handler'],
} as const;

async function load<T>(appDir: string, entry: keyof typeof ENTRIES): Promise<T> {
  const [path, name] = ENTRIES[entry];
  const module = (await import(pathToFileURL(join(appDir, path)).href)) as Record<string, unknown>;
  if (typeof module[name] !== 'function') throw new Error(`${path} exports no function named ${name}`);
  return module[name] as T;
}

/** The MCP function's buffered handler (HTTP API). */
export const loadHttpHandler = (appDir: string) => load<LambdaHttpHandler>(appDir, 'mcp');

/** The MCP function's streaming handler (REST API with response streaming). */
export const loadStreamingHandler = (appDir: string) =>
  load<StreamingHandler<StreamingEvent>>(appDir, 'mcpStreaming');

/** The companion resources function, the only reader of stored outputs. */
export const loadCompanionHandler = (appDir: string) => load<InvokedHandler>(appDir, 'companion');
