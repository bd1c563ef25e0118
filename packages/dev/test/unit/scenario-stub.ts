/**
 * A scripted MCP server on loopback for the scenario runs' tests: just enough of each method to answer every kind
 * of step, some tools that fail in each way a step can fail, and a note of every request it received.
 */
import { createServer, type IncomingHttpHeaders, type ServerResponse } from 'node:http';
import type { AddressInfo } from 'node:net';

/** A request as the stub received it. */
interface Received {
  method: string;
  params: Record<string, any>;
  headers: IncomingHttpHeaders;
}

const TOOLS = ['ping', 'big', 'read_output', 'slow_job', 'confirm', 'fails', 'broken', 'tool_error'].map(
  (name) => ({
    name,
    inputSchema: { type: 'object' },
  }),
);
const MIRROR = {
  name: 'mirror',
  inputSchema: { type: 'object', properties: { region: { type: 'string', 'x-mcp-header': 'Region' } } },
};

const text = (value: string) => ({ content: [{ type: 'text', text: value }] });

/** read_output over a 30-byte output, 10 bytes a page. */
function page(params: Record<string, any>) {
  const offset = Number(params.arguments.offset ?? 0);
  const next = offset + 10 < 30 ? { nextOffset: offset + 10 } : {};
  return { ...text(`page at ${offset}`), structuredContent: { uri: params.arguments.uri, offset, ...next } };
}

/**
 * confirm asks twice (ask-0, then ask-1): each retry answers the last question alone, and carries the state that
 * holds the answers before it, as a 2026-07-28 client does.
 */
function confirm(params: Record<string, any>) {
  const answered = params.inputResponses ?? {};
  const question = (key: string, state: string) => ({
    resultType: 'input_required',
    inputRequests: { [key]: { method: 'elicitation/create', params: { message: key } } },
    requestState: state,
  });
  if (params.requestState === undefined) return question('ask-0', 's0');
  if (params.requestState === 's0' && answered['ask-0']) return question('ask-1', 's1');
  if (params.requestState === 's1' && answered['ask-1']) return text('answered');
  return { ...text('lost state'), isError: true };
}

/** Starts the stub; `token` makes every MCP request need it. */
export async function startStub(token?: string) {
  const received: Received[] = [];
  let polls = 0;
  const answer = (res: ServerResponse, id: unknown, body: object, status = 200, headers = {}) => {
    res.writeHead(status, { 'content-type': 'application/json', ...headers });
    res.end(JSON.stringify({ jsonrpc: '2.0', id, ...body }));
  };
  const call = (params: Record<string, any>, headers: IncomingHttpHeaders): object => {
    const tasks = params._meta?.['io.modelcontextprotocol/clientCapabilities']?.extensions;
    switch (params.name) {
      case 'big':
        return {
          content: [
            { type: 'text', text: 'stored' },
            { type: 'resource_link', uri: 'mcp-output://o/1', name: 'o' },
          ],
        };
      case 'read_output':
        return page(params);
      case 'slow_job':
        return tasks
          ? { resultType: 'task', taskId: 't1', status: 'working', pollIntervalMs: 20 }
          : text('direct');
      case 'confirm':
        return confirm(params);
      case 'tool_error':
        return { ...text('the tool failed'), isError: true };
      case 'mirror':
        return text(headers['mcp-param-region'] === params.arguments.region ? 'mirrored' : 'not mirrored');
      default:
        return text('pong');
    }
  };
  const server = createServer((req, res) => {
    let body = '';
    req.on('data', (chunk: Buffer) => (body += chunk.toString()));
    req.on('end', () => {
      const message = JSON.parse(body) as { id?: number; method: string; params: Record<string, any> };
      received.push({ method: message.method, params: message.params, headers: req.headers });
      if (token !== undefined && req.headers.authorization !== `Bearer ${token}`)
        return answer(res, message.id, {}, 401);
      if (message.id === undefined) return res.writeHead(202).end();
      if (message.method === 'initialize')
        return answer(res, message.id, { result: { protocolVersion: '2025-06-18' } }, 200, {
          'mcp-session-id': 'sess-1',
        });
      if (message.method === 'tools/list')
        return answer(res, message.id, { result: { tools: [...TOOLS, MIRROR] } });
      if (message.method === 'tasks/get') {
        const done = ++polls > 2;
        return answer(res, message.id, {
          result: {
            taskId: 't1',
            status: done ? 'completed' : 'working',
            pollIntervalMs: 20,
            ...(done ? { result: text('job done') } : {}),
          },
        });
      }
      if (message.params.name === 'fails')
        return answer(res, message.id, { error: { code: -32602, message: 'bad arguments' } });
      if (message.params.name === 'broken') return answer(res, message.id, {}, 500);
      return answer(res, message.id, { result: call(message.params, req.headers) });
    });
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  return {
    url: `http://127.0.0.1:${(server.address() as AddressInfo).port}/mcp`,
    received,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}
