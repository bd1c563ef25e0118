/**
 * Part 9: what the model pays for, in bytes. Hosts send every tool definition with every model call, and each
 * framework hands its model a tool result in its own way (`model-view.ts`): the template's tools as `tools/list`
 * gives them and as the function declarations frameworks forward (name, description, input schema); the offload
 * notice of a stored report; and a default read_output page, whole and as its envelope (all but the page text).
 * Counted through the server in-process, with the template's tools and the default offload threshold.
 */
import {
  silentLogger,
  createOffloader,
  storedOutputPages,
  READ_OUTPUT_TOOL,
  storedOutputs,
  createMcpServer,
  type McpServer,
} from '@mcp-lambda/server/lambda';
import { memoryStorage } from '@mcp-lambda/server/backend';
import { Defaults } from '@mcp-lambda/server/limits';
import { tools } from '../../src/tools/index.ts';
import { validators } from '../../src/generated/validators.generated.ts';
import { modelViews, type Framework, type ToolResultView } from './model-view.ts';

/** Rows of the report whose notice and first page are measured (about 190 KB, well past the threshold). */
const REPORT_ROWS = 5_000;

export interface ModelBytesResult {
  /** The `tools` of `tools/list`, serialized, and read_output's definition alone. */
  toolsList: { allBytes: number; readOutputBytes: number };
  /** The same as function declarations (name, description, input schema): what frameworks send the model. */
  declarations: { allBytes: number; readOutputBytes: number };
  /** The result of a call whose output was stored (notice and links), per framework. */
  notice: Record<Framework, number>;
  /** A default read_output page per framework, and the page text it carries. */
  page: Record<Framework, number>;
  pageTextBytes: number;
}

const bytes = (value: unknown) => Buffer.byteLength(JSON.stringify(value), 'utf8');

function server(): McpServer {
  const storage = memoryStorage();
  return createMcpServer({
    info: { name: 'model-bytes', version: '1.0.0' },
    tools,
    validators,
    resources: [storedOutputs({ storage, prefix: 'outputs/' })],
    offloader: createOffloader({
      storage,
      prefix: 'outputs/',
      thresholdBytes: Defaults.offloadThresholdBytes,
      ttlDays: 1,
    }),
    outputPages: storedOutputPages({ storage, prefix: 'outputs/' }),
  });
}

async function rpc(target: McpServer, method: string, params: Record<string, unknown>): Promise<any> {
  const res = await target.handle(
    {
      method: 'POST',
      path: '/mcp',
      headers: {
        'content-type': 'application/json',
        accept: 'application/json, text/event-stream',
        'mcp-protocol-version': '2025-11-25',
      },
      body: JSON.stringify({ jsonrpc: '2.0', id: 1, method, params }),
    },
    { requestId: 'model-bytes', log: silentLogger },
  );
  const message = JSON.parse(res.body ?? '{}');
  if (!message.result) throw new Error(`model bytes: ${method} failed (${res.body?.slice(0, 200)})`);
  return message.result;
}

/** Counts the bytes a model is handed, per framework where they differ. */
export async function measureModelBytes(): Promise<ModelBytesResult> {
  const target = server();
  const listed: { name: string; description?: string; inputSchema: unknown }[] = (
    await rpc(target, 'tools/list', {})
  ).tools;
  const declared = listed.map((t) => ({
    name: t.name,
    description: t.description,
    parameters: t.inputSchema,
  }));
  const readIndex = listed.findIndex((t) => t.name === READ_OUTPUT_TOOL);
  const report: ToolResultView = await rpc(target, 'tools/call', {
    name: 'generate_report',
    arguments: { rows: REPORT_ROWS },
  });
  const uri = report.content.find((b) => b.type === 'resource_link')?.uri;
  if (typeof uri !== 'string') throw new Error('model bytes: the report was not stored');
  const page: ToolResultView = await rpc(target, 'tools/call', {
    name: READ_OUTPUT_TOOL,
    arguments: { uri },
  });
  return {
    toolsList: { allBytes: bytes(listed), readOutputBytes: bytes(listed[readIndex]) },
    declarations: { allBytes: bytes(declared), readOutputBytes: bytes(declared[readIndex]) },
    notice: modelViews(report),
    page: modelViews(page),
    pageTextBytes: Buffer.byteLength(page.content[1]?.text ?? '', 'utf8'),
  };
}
