/**
 * The artifact that would be deployed is the artifact that is tested: the stack is synthesized with real esbuild
 * bundling, and the staged assets (the very files `cdk deploy` uploads) run in plain Node.js 22 processes behind a
 * local stand-in for the Lambda Invoke API, with a local S3-compatible server as the bucket.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, statSync, symlinkSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, relative } from 'node:path';
import { createInterface } from 'node:readline';
import { fileURLToPath } from 'node:url';
import type { APIGatewayProxyEventV2, APIGatewayProxyStructuredResultV2 } from 'aws-lambda';
import { build } from 'esbuild';
import { afterAll, beforeAll, describe, expect, it } from 'vitest';
import { ESM_REQUIRE_BANNER, esbuildOptions, FUNCTION_ENTRIES } from '@mcp-lambda/cdk/bundling';
import { LAMBDA_RUNTIME } from '@mcp-lambda/cdk';
import { LOCAL_S3_CREDENTIALS, startLocalS3, type LocalS3 } from '@mcp-lambda/dev';
import { startupOutputs } from '../bench/bundle.ts';
import { lambdaNode } from '../support/node-version.ts';
import { statelessHeaders, statelessMeta, pageOf } from '@mcp-lambda/dev/testing';
import { synthStack } from './synth.ts';

const ROOT = fileURLToPath(new URL('../../', import.meta.url));
const DRIVER = fileURLToPath(new URL('./lambda-invoke-driver.mjs', import.meta.url));
const COMPANION_NAME = 'mcp-resources-under-test';
const BUCKET = 'mcp-outputs-under-test';
const TABLE = 'mcp-tasks-under-test';
const WORKER_NAME = 'mcp-worker-under-test';
const STARTUP_LIMIT_MS = 20_000;
/** What each function may load at cold start (KB = 1,024 bytes): the MCP function's goal, the others' size today. */
const STARTUP_LIMIT_BYTES = { mcp: 85 * 1024, companion: 52 * 1024, worker: 50 * 1024 } as const;

type Fn = {
  logicalId: string;
  assetDir: string;
  timeout: number;
  memory: number;
  env: Record<string, string>;
};

/** One bundle served by the driver, with every log line the bundle printed. */
interface Served {
  port: number;
  importMs: number;
  logs: string[];
  /** The function name of every invocation, as the caller addressed it. */
  invoked: string[];
  child: ChildProcess;
}

/** This process's Node.js, checked to be the Lambda runtime's major before anything is built. */
let node: string;
let outdir: string;
let s3: LocalS3;
let synthMs: number;
const fns: Record<'mcp' | 'companion' | 'worker', Fn> = {} as never;
const served: Partial<Record<'mcp' | 'companion', Served>> = {};

/** Replaces the references CloudFormation would resolve with the values this test stands in for. */
function resolveEnvironment(
  variables: Record<string, unknown>,
  refs: Record<string, string>,
): Record<string, string> {
  return Object.fromEntries(
    Object.entries(variables).map(([name, value]) => {
      if (typeof value === 'string') return [name, value];
      const ref = (value as { Ref?: string }).Ref;
      if (ref === undefined || refs[ref] === undefined)
        throw new Error(`environment variable ${name} has a value this test cannot stand in for`);
      return [name, refs[ref]];
    }),
  );
}

/** Starts the driver on one bundle in a plain Node.js 22 process with exactly the function's environment. */
async function serve(fn: Fn, extraEnv: Record<string, string>): Promise<Served> {
  const child = spawn(node, [DRIVER, join(fn.assetDir, 'index.mjs'), String(fn.timeout)], {
    cwd: fn.assetDir,
    env: {
      PATH: process.env.PATH ?? '',
      HOME: join(outdir, 'home'),
      TZ: ':UTC',
      AWS_REGION: 'us-east-1',
      AWS_DEFAULT_REGION: 'us-east-1',
      AWS_LAMBDA_FUNCTION_MEMORY_SIZE: String(fn.memory),
      AWS_LAMBDA_LOG_FORMAT: 'JSON',
      AWS_LAMBDA_LOG_LEVEL: fn.env.POWERTOOLS_LOG_LEVEL ?? 'INFO',
      AWS_ACCESS_KEY_ID: LOCAL_S3_CREDENTIALS.accessKeyId,
      AWS_SECRET_ACCESS_KEY: LOCAL_S3_CREDENTIALS.secretAccessKey,
      ...fn.env,
      ...extraEnv,
    },
    stdio: ['ignore', 'pipe', 'pipe'],
  });
  const logs: string[] = [];
  const invoked: string[] = [];
  const lines = createInterface({ input: child.stdout! });
  const errors: string[] = [];
  child.stderr!.on('data', (chunk: Buffer) => errors.push(chunk.toString('utf8')));
  return await new Promise<Served>((resolve, reject) => {
    const timer = setTimeout(() => {
      child.kill();
      reject(new Error(`the driver did not start within ${STARTUP_LIMIT_MS} ms: ${errors.join('')}`));
    }, STARTUP_LIMIT_MS);
    child.once('exit', (code) => {
      clearTimeout(timer);
      reject(new Error(`the driver exited with ${code}: ${errors.join('')}`));
    });
    lines.on('line', (line) => {
      if (line.startsWith('{"driver":"listening"')) {
        clearTimeout(timer);
        const ready = JSON.parse(line) as { port: number; importMs: number };
        resolve({ port: ready.port, importMs: ready.importMs, logs, invoked, child });
      } else if (line.startsWith('{"driver":"invoked"')) invoked.push(JSON.parse(line).functionName);
      else logs.push(line);
    });
  });
}

/** Invokes the MCP bundle with an API Gateway HTTP API (payload 2.0) event, as API Gateway would. */
async function callApi(init: {
  method?: string;
  body?: unknown;
  headers?: Record<string, string>;
}): Promise<APIGatewayProxyStructuredResultV2 & { json: any }> {
  const now = new Date();
  const method = init.method ?? 'POST';
  const headers: Record<string, string> = {
    host: 'abc123.execute-api.us-east-1.amazonaws.com',
    'content-type': 'application/json',
    accept: 'application/json, text/event-stream',
    'user-agent': 'bundle-test',
    ...init.headers,
  };
  const event: APIGatewayProxyEventV2 = {
    version: '2.0',
    routeKey: `${method} /mcp`,
    rawPath: '/mcp',
    rawQueryString: '',
    headers,
    requestContext: {
      accountId: '123456789012',
      apiId: 'abc123',
      domainName: headers.host!,
      domainPrefix: 'abc123',
      http: { method, path: '/mcp', protocol: 'HTTP/1.1', sourceIp: '203.0.113.7', userAgent: 'bundle-test' },
      requestId: `api-${now.getTime()}`,
      routeKey: `${method} /mcp`,
      stage: '$default',
      time: now.toISOString(),
      timeEpoch: now.getTime(),
    },
    ...(init.body !== undefined ? { body: JSON.stringify(init.body) } : {}),
    isBase64Encoded: false,
  };
  const res = await fetch(`http://127.0.0.1:${served.mcp!.port}/2015-03-31/functions/mcp/invocations`, {
    method: 'POST',
    body: JSON.stringify(event),
    signal: AbortSignal.timeout(30_000),
  });
  expect(res.headers.get('x-amz-function-error')).toBeNull();
  const result = (await res.json()) as APIGatewayProxyStructuredResultV2;
  return { ...result, json: result.body ? JSON.parse(result.body) : undefined };
}

const HANDSHAKE = { 'mcp-protocol-version': '2025-06-18' };

/** Every file under a directory, as sorted relative paths. */
const filesUnder = (dir: string): string[] =>
  readdirSync(dir, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(dir, join(entry.parentPath, entry.name)))
    .sort();
const regenerated = () => join(outdir, 'validators.generated.ts');

beforeAll(async () => {
  node = lambdaNode('The bundle test (it runs the deployed bundles as Lambda would)');
  outdir = mkdtempSync(join(tmpdir(), 'mcp-bundle-test-'));
  mkdirSync(join(outdir, 'home'));
  const started = performance.now();
  // The MCP function's bundling step regenerates the tool validators; here it writes a scratch copy, so the test
  // never rewrites a source file other tests may be reading.
  const { template } = synthStack(
    {
      endpoint: {
        auth: { mode: 'none' },
        mcpBeforeBundling: [`npx --no mcp-lambda-dev generate validators --out ${outdir}`],
      },
    },
    { bundle: true, outdir: join(outdir, 'cdk.out'), context: { 'aws:cdk:enable-asset-metadata': true } },
  );
  synthMs = Math.round(performance.now() - started);

  const functions = template.findResources('AWS::Lambda::Function', {
    Properties: { Runtime: LAMBDA_RUNTIME.name },
  });
  const bucketId = Object.keys(template.findResources('AWS::S3::Bucket'))[0]!;
  const byDescription = (start: string) => {
    const [logicalId, resource] = Object.entries(functions).find(([, r]) =>
      String(r.Properties.Description).startsWith(start),
    )!;
    return { logicalId, resource };
  };
  const companion = byDescription('Companion');
  const worker = byDescription('Task worker');
  const tableId = Object.keys(template.findResources('AWS::DynamoDB::Table'))[0]!;
  // The session key stands in as MCP_SESSION_SECRET (below): there is no Secrets Manager here.
  const secretId = Object.keys(template.findResources('AWS::SecretsManager::Secret'))[0]!;
  const refs = {
    [secretId]: 'stand-in',
    [bucketId]: BUCKET,
    [companion.logicalId]: COMPANION_NAME,
    [tableId]: TABLE,
    [worker.logicalId]: WORKER_NAME,
  };
  for (const [name, start] of [
    ['mcp', 'Stateless MCP server'],
    ['companion', 'Companion'],
    ['worker', 'Task worker'],
  ] as const) {
    const { logicalId, resource } = byDescription(start);
    fns[name] = {
      logicalId,
      assetDir: join(outdir, 'cdk.out', resource.Metadata['aws:asset:path']),
      timeout: resource.Properties.Timeout,
      memory: resource.Properties.MemorySize,
      env: resolveEnvironment(resource.Properties.Environment.Variables, refs),
    };
  }

  // The Lambda runtime provides the AWS SDK v3 and nothing else: link exactly that beside the assets.
  mkdirSync(join(outdir, 'cdk.out', 'node_modules'));
  symlinkSync(join(ROOT, 'node_modules/@aws-sdk'), join(outdir, 'cdk.out', 'node_modules/@aws-sdk'), 'dir');

  s3 = await startLocalS3({ directory: join(outdir, 's3'), bucket: BUCKET, port: 0 });
  served.companion = await serve(fns.companion, { S3_ENDPOINT: s3.endpoint });
  delete fns.mcp.env.MCP_SESSION_SECRET_ARN;
  served.mcp = await serve(fns.mcp, {
    MCP_SESSION_SECRET: 'bundle-test-session-key-000000000000000',
    S3_ENDPOINT: s3.endpoint,
    AWS_ENDPOINT_URL_LAMBDA: `http://127.0.0.1:${served.companion.port}`,
  });
  // A synth that bundles three functions, and their servers started: some 8 s on a quiet machine, about a minute on
  // a busy one (three runs at once beside CPU hogs).
}, 240_000);

afterAll(async () => {
  for (const s of Object.values(served)) s?.child.kill('SIGTERM');
  await s3?.stop();
  if (outdir) rmSync(outdir, { recursive: true, force: true });
});

describe('the deployed bundles', () => {
  it('each function is a minified ESM handler module and its chunks, each with a linked source map without sources', () => {
    const sizes: Record<string, number> = {};
    for (const [name, fn] of Object.entries(fns)) {
      const files = filesUnder(fn.assetDir);
      expect(files).toContain('index.mjs');
      expect(files.every((f) => /^(index|chunks\/[\w.-]+)\.mjs(\.map)?$/.test(f))).toBe(true);
      for (const file of files.filter((f) => f.endsWith('.mjs'))) {
        const code = readFileSync(join(fn.assetDir, file), 'utf8');
        expect(code.startsWith(ESM_REQUIRE_BANNER)).toBe(true);
        // No static ESM import of a Node builtin: it would run every lazy getter of the builtin's exports.
        expect(code, file).not.toMatch(/\bfrom\s*["'](node:)?(fs|module|crypto|stream|zlib|os|path)["']/);
        const mapName = `${file.split('/').at(-1)}.map`;
        expect(code.trimEnd().endsWith(`//# sourceMappingURL=${mapName}`)).toBe(true);
        const map = JSON.parse(readFileSync(join(fn.assetDir, `${file}.map`), 'utf8'));
        expect(map.sourcesContent).toBeUndefined();
      }
      sizes[`${name} index.mjs`] = statSync(join(fn.assetDir, 'index.mjs')).size;
      sizes[`${name} all .mjs`] = files
        .filter((f) => f.endsWith('.mjs'))
        .reduce((n, f) => n + statSync(join(fn.assetDir, f)).size, 0);
    }
    console.info(`synth with bundling: ${synthMs} ms; bundle sizes (bytes): ${JSON.stringify(sizes)}`);
    console.info(
      `bundle import in Node.js 22 (cold, --enable-source-maps): mcp ${served.mcp!.importMs} ms, ` +
        `companion ${served.companion!.importMs} ms`,
    );
    expect(sizes['mcp all .mjs']).toBeLessThan(1024 * 1024);
  });

  it('the MCP bundling step regenerates the tool validators, identical to the ones in the bundle', () => {
    expect(readFileSync(regenerated(), 'utf8')).toBe(
      readFileSync(join(ROOT, 'src/generated/validators.generated.ts'), 'utf8'),
    );
    const committed = join(ROOT, 'src/generated/validators');
    expect(filesUnder(join(outdir, 'validators'))).toEqual(filesUnder(committed));
    for (const file of filesUnder(committed))
      expect(readFileSync(join(outdir, 'validators', file), 'utf8')).toBe(
        readFileSync(join(committed, file), 'utf8'),
      );
  });

  it.each([
    ['mcp', FUNCTION_ENTRIES.mcp],
    ['companion', FUNCTION_ENTRIES.resources],
    ['worker', FUNCTION_ENTRIES.worker],
  ] as const)(
    'the %s bundle is byte-identical, file for file, to a direct build with the shared settings, and leaves the AWS SDK out',
    async (name, entry) => {
      const direct = join(outdir, 'direct', name);
      const result = await build({ ...esbuildOptions(join(ROOT, entry), direct), absWorkingDir: ROOT });
      const deployed = fns[name].assetDir;
      expect(filesUnder(direct)).toEqual(filesUnder(deployed));
      for (const file of filesUnder(direct))
        expect(readFileSync(join(direct, file)), file).toEqual(readFileSync(join(deployed, file)));
      const bundled = Object.keys(result.metafile!.inputs);
      expect(bundled.filter((input) => input.includes('node_modules/@aws-sdk/'))).toEqual([]);
      // The X-Ray SDK (Powertools Tracer, loaded only with MCP_TRACING) carries the SDK's error-code constants.
      const tracerOnly = /node_modules\/@smithy\/service-error-classification\//;
      expect(
        bundled.filter((input) => input.includes('node_modules/@smithy/') && !tracerOnly.test(input)),
      ).toEqual([]);

      // Tracing (OpenTelemetry, with the request signing of X-Ray's OTLP endpoint) and per-tool metrics are chunks imported only when their option is on: never
      // in the code a cold start loads before the handler runs (the handler module and the chunks it imports
      // statically). MCP_TRACING=off loads no OpenTelemetry module at all.
      const metafile = result.metafile!;
      const startup = startupOutputs(metafile, join(direct, 'index.mjs'));
      const code = Object.keys(metafile.outputs).filter((path) => path.endsWith('.mjs'));
      const inputsOf = (outputs: string[]) =>
        outputs.flatMap((out) => Object.keys(metafile.outputs[out]!.inputs));
      const optional =
        /node_modules\/(@aws-lambda-powertools\/metrics|@opentelemetry\/[^/]+)\/|src\/function\/tool-metrics\.ts$|src\/telemetry\/(?!loader\.ts$|telemetry\.ts$|outbound\.ts$)[^/]+\.ts$/;
      expect(inputsOf(startup).filter((input) => optional.test(input))).toEqual([]);
      const lazy = inputsOf(code.filter((out) => !startup.includes(out)));
      expect(lazy.some((input) => input.endsWith('src/telemetry/aws-signing.ts'))).toBe(true);
      expect(lazy.some((input) => input.includes('node_modules/@opentelemetry/sdk-trace/'))).toBe(true);
      if (name === 'mcp')
        expect(lazy.some((input) => input.includes('node_modules/@aws-lambda-powertools/metrics/'))).toBe(
          true,
        );
      // The offloader's writing code loads on the first output that may need storing (an `import()` in packages/server/src/outputs/).
      if (name !== 'companion') {
        const writing = /src\/outputs\/(offloader|stream-store)\.ts$/;
        expect(inputsOf(startup).filter((input) => writing.test(input))).toEqual([]);
        expect(lazy.some((input) => writing.test(input))).toBe(true);
      }
      // The tasks extension loads on its first use (an `import()` of packages/server/src/methods/task-extension.ts).
      if (name === 'mcp') {
        const tasks = /src\/(tasks\/(runner|records|policy)|methods\/(tasks|task-calls))\.ts$/;
        expect(inputsOf(startup).filter((input) => tasks.test(input))).toEqual([]);
        expect(lazy.some((input) => tasks.test(input))).toBe(true);
        // Views (their documents, their serving) and the approval gate load on first use (docs/views.md).
        const onFirstUse =
          /src\/generated\/views\/.*\.generated\.ts$|src\/(approval\/(gate|proof|ask)|views\/serve|outputs\/delete-output)\.ts$/;
        expect(inputsOf(startup).filter((input) => onFirstUse.test(input))).toEqual([]);
        const views = new Set(
          lazy.filter(
            (input) =>
              /src\/generated\/views\/.*\.generated\.ts$/.test(input) && !input.startsWith('lazy-module:'),
          ),
        );
        expect(views.size).toBe(3);
        // read_output's paging (its call and queries, the companion's page client), reading streamed outputs, the
        // task table's calls and the stored-output notices load on first use, never at a cold start.
        const onFirstCall =
          /src\/(outputs\/(read-call|read-query|summary|companion\/page-client)|tools\/stream-reading|tasks\/dynamodb-records)\.ts$/;
        expect(inputsOf(startup).filter((input) => onFirstCall.test(input))).toEqual([]);
        expect(
          new Set(lazy.filter((input) => onFirstCall.test(input) && !input.startsWith('lazy-module:'))).size,
        ).toBe(6);
        // Sealing and opening requestState, and reading its keys, load with the asking chunk on the first state
        // (packages/server/src/asking/lazy.ts): a cold start pays for neither.
        const sealing = /src\/(input\/request-state|sessions\/session-keys)\.ts$/;
        expect(inputsOf(startup).filter((input) => sealing.test(input))).toEqual([]);
        expect(
          new Set(lazy.filter((input) => sealing.test(input) && !input.startsWith('lazy-module:'))).size,
        ).toBe(2);
      }
      // An import() in a module a function keeps no code of gets no chunk (packages/cdk/src/startup-chunk.ts), so
      // what it would load never counts as used: the companion, which runs no tool, holds tracing's chunks alone.
      if (name === 'companion')
        expect(
          code.filter((out) => !startup.includes(out)).map((out) => metafile.outputs[out]!.entryPoint),
        ).toEqual(['lazy-module:packages/server/src/telemetry/otel.ts']);
      // All start-up code in one chunk beside the handler module (packages/cdk/src/startup-chunk.ts): each file is a
      // module load of its own in a cold start.
      expect(startup.length).toBeLessThanOrEqual(2);
      const bytesOf = (outputs: string[]) => outputs.reduce((n, out) => n + metafile.outputs[out]!.bytes, 0);
      console.info(
        `${name} bundle: start-up load graph ${bytesOf(startup)} bytes in ${startup.length} files, ` +
          `all chunks ${bytesOf(code)} bytes in ${code.length} files`,
      );
      expect(bytesOf(startup)).toBeLessThanOrEqual(STARTUP_LIMIT_BYTES[name]);
    },
    // A whole esbuild build of the function: 2-5 s of real CPU work on a quiet machine, ten times that on a busy one
    // (measured 48 s for the MCP function, three at once beside CPU hogs).
    120_000,
  );
});

describe('the bundled MCP function in a plain Node.js 22 process', () => {
  it('answers initialize with the negotiated version, its capabilities and its server info', async () => {
    const res = await callApi({
      body: {
        jsonrpc: '2.0',
        id: 1,
        method: 'initialize',
        params: {
          protocolVersion: '2025-06-18',
          capabilities: {},
          clientInfo: { name: 'bundle-test', version: '1.0.0' },
        },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.headers).toMatchObject({ 'content-type': 'application/json' });
    // The session: what the client declared, sealed (docs/asking.md); a later request naming it is served.
    const session = String(res.headers?.['mcp-session-id']);
    expect(session).toMatch(/^[A-Za-z0-9_-]{40,}$/);
    const listed = await callApi({
      headers: { ...HANDSHAKE, 'mcp-session-id': session },
      body: { jsonrpc: '2.0', id: 3, method: 'tools/list' },
    });
    expect(listed.statusCode).toBe(200);
    const unknown = await callApi({
      headers: { ...HANDSHAKE, 'mcp-session-id': `${session.slice(0, -4)}AAAA` },
      body: { jsonrpc: '2.0', id: 4, method: 'tools/list' },
    });
    expect(unknown.statusCode).toBe(404);
    expect(res.json).toMatchObject({
      jsonrpc: '2.0',
      id: 1,
      result: {
        protocolVersion: '2025-06-18',
        capabilities: { tools: {}, resources: {} },
        serverInfo: { name: 'mcp-lambda-template' },
      },
    });
  });

  it('lists the example tools', async () => {
    const res = await callApi({ headers: HANDSHAKE, body: { jsonrpc: '2.0', id: 2, method: 'tools/list' } });
    const names = (res.json.result.tools as { name: string }[]).map((t) => t.name);
    expect(names).toEqual(expect.arrayContaining(['ping', 'safe_divide', 'generate_report']));
  });

  it('answers tools/call with the tool result', async () => {
    const res = await callApi({
      headers: HANDSHAKE,
      body: { jsonrpc: '2.0', id: 3, method: 'tools/call', params: { name: 'ping', arguments: {} } },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json.result).toMatchObject({ content: [{ type: 'text', text: 'pong' }] });
    expect(res.json.result.isError).toBeFalsy();
  });

  it('answers a failing tools/call with isError and the message, not a protocol error', async () => {
    const res = await callApi({
      headers: HANDSHAKE,
      body: {
        jsonrpc: '2.0',
        id: 4,
        method: 'tools/call',
        params: { name: 'safe_divide', arguments: { a: 1, b: 0 } },
      },
    });
    expect(res.json.result.isError).toBe(true);
    expect(res.json.result.content[0].text).toMatch(/divide by zero/);
  });

  it('answers a stateless 2026-07-28 tools/call with a complete result', async () => {
    const res = await callApi({
      headers: statelessHeaders('tools/call', 'ping'),
      body: {
        jsonrpc: '2.0',
        id: 5,
        method: 'tools/call',
        params: { name: 'ping', arguments: {}, _meta: statelessMeta() },
      },
    });
    expect(res.statusCode).toBe(200);
    expect(res.json.result).toMatchObject({
      resultType: 'complete',
      content: [{ type: 'text', text: 'pong' }],
    });
  });

  it('answers GET with 405 and an Allow header (the route exists so the function can say so)', async () => {
    const res = await callApi({ method: 'GET', headers: { accept: 'text/event-stream' } });
    expect(res.statusCode).toBe(405);
    expect(res.headers).toMatchObject({ allow: 'POST' });
  });

  it('stores a large output in the bucket through the runtime-provided SDK and reads it back through the companion', async () => {
    const call = await callApi({
      headers: HANDSHAKE,
      body: {
        jsonrpc: '2.0',
        id: 6,
        method: 'tools/call',
        params: { name: 'generate_report', arguments: { rows: 2000 } },
      },
    });
    expect(call.json.result.isError).toBeFalsy();
    const link = (call.json.result.content as { type: string; uri?: string }[]).find(
      (b) => b.type === 'resource_link',
    );
    expect(link?.uri).toMatch(/^mcp-output:\/\/outputs\//);

    const read = await callApi({
      headers: HANDSHAKE,
      body: { jsonrpc: '2.0', id: 7, method: 'resources/read', params: { uri: link!.uri } },
    });
    expect(read.json.error).toBeUndefined();
    const text: string = read.json.result.contents[0].text;
    expect(text.split('\n')[0]).toBe('id,date,region,units,unit_price,total');
    expect(text.trimEnd().split('\n')).toHaveLength(2001);
    // The read went through the companion, addressed by the name the stack passes in RESOURCES_FUNCTION_NAME.
    expect(served.companion!.invoked).toEqual([COMPANION_NAME]);
  });

  it('lists read_output and pages, searches and selects CSV rows of a stored output through the companion bundle', async () => {
    const list = await callApi({ headers: HANDSHAKE, body: { jsonrpc: '2.0', id: 8, method: 'tools/list' } });
    expect(list.json.result.tools.map((t: { name: string }) => t.name)).toContain('read_output');
    const call = await callApi({
      headers: HANDSHAKE,
      body: {
        jsonrpc: '2.0',
        id: 9,
        method: 'tools/call',
        params: { name: 'generate_report', arguments: { rows: 3000 } },
      },
    });
    const uri = (call.json.result.content as { type: string; uri?: string }[]).find(
      (b) => b.type === 'resource_link',
    )!.uri;
    const read = async (id: number, args: Record<string, unknown>) =>
      (
        await callApi({
          headers: HANDSHAKE,
          body: {
            jsonrpc: '2.0',
            id,
            method: 'tools/call',
            params: { name: 'read_output', arguments: { uri, ...args } },
          },
        })
      ).json.result;
    const invokedBefore = served.companion!.invoked.length;
    expect(pageOf(await read(10, { line: 1, count: 1 })).text).toBe(
      'id,date,region,units,unit_price,total\n',
    );
    expect((await read(11, { search: 'south', count: 1 })).structuredContent.search.matchCount).toBe(750);
    expect((await read(12, { row: 3000 })).structuredContent.csv).toMatchObject({ rows: 1, totalRows: 3000 });
    expect(served.companion!.invoked.slice(invokedBefore)).toEqual([
      COMPANION_NAME,
      COMPANION_NAME,
      COMPANION_NAME,
    ]);
  });

  it('writes only structured JSON log lines, each request line with the invocation request id', () => {
    for (const s of [served.mcp!, served.companion!]) {
      for (const line of s.logs) expect(() => JSON.parse(line), line).not.toThrow();
    }
    const requests = served.mcp!.logs.map((l) => JSON.parse(l)).filter((l) => l.message === 'request');
    expect(requests.length).toBeGreaterThanOrEqual(7);
    for (const line of requests) {
      expect(line).toMatchObject({ service: 'mcp-lambda-template', level: 'INFO' });
      expect(line.requestId).toMatch(/^[0-9a-f-]{36}$/);
    }
  });

  it('writes one embedded-metric-format line per tool call, in the stack namespace, per tool', () => {
    const documents: any[] = served.mcp!.logs.map((l) => JSON.parse(l)).filter((l) => l._aws !== undefined);
    const byTool: Record<string, any[]> = {};
    for (const document of documents) (byTool[document['gen_ai.tool.name']] ??= []).push(document);
    // Calls so far: ping twice, safe_divide once (isError), generate_report twice (stored), read_output three times.
    expect(Object.fromEntries(Object.entries(byTool).map(([tool, list]) => [tool, list.length]))).toEqual({
      ping: 2,
      safe_divide: 1,
      generate_report: 2,
      read_output: 3,
    });
    for (const document of documents) {
      expect(document._aws.CloudWatchMetrics).toEqual([
        {
          Namespace: fns.mcp.env.MCP_METRICS_NAMESPACE,
          Dimensions: [['service', 'mcp.method.name', 'gen_ai.tool.name']],
          Metrics: expect.arrayContaining([{ Name: 'mcp.server.operation.duration', Unit: 'Seconds' }]),
        },
      ]);
      expect(document).toMatchObject({
        service: 'mcp-lambda-template',
        'mcp.method.name': 'tools/call',
        level: 'INFO',
      });
      expect(document['mcp.server.operation.duration']).toBeGreaterThanOrEqual(0);
    }
    expect(fns.mcp.env.MCP_METRICS_NAMESPACE).toBe('MCP/McpServer');
    expect(byTool.safe_divide![0]).toMatchObject({ ToolErrors: 1 });
    for (const stored of byTool.generate_report!) expect(stored.OffloadedBytes).toBeGreaterThan(50_000);
  });
});
