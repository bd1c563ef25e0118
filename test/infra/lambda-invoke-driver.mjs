// A stand-in for the Lambda service, run by a plain Node.js process (no TypeScript loader, no test runner): it
// imports one deployed bundle and serves the Lambda Invoke API on 127.0.0.1, so the bundle is called exactly as
// Lambda calls it (an event and a context in, a result out) and the AWS SDK in another bundle can invoke it.
// Usage: node lambda-invoke-driver.mjs <bundle index.mjs> <timeout seconds>
import { randomUUID } from 'node:crypto';
import { createServer } from 'node:http';
import { pathToFileURL } from 'node:url';

const [bundle, timeoutSeconds] = process.argv.slice(2);
const started = performance.now();
const { handler } = await import(pathToFileURL(bundle).href);
const importMs = Math.round((performance.now() - started) * 10) / 10;
const INVOKE_PATH = /^\/2015-03-31\/functions\/([^/]+)\/invocations$/;

const server = createServer((req, res) => {
  const chunks = [];
  req.on('data', (chunk) => chunks.push(chunk));
  req.on('end', async () => {
    const match = INVOKE_PATH.exec(req.url ?? '');
    if (req.method !== 'POST' || !match) {
      res.writeHead(404, { 'content-type': 'application/json' }).end('{"message":"Not found"}');
      return;
    }
    process.stdout.write(
      `${JSON.stringify({ driver: 'invoked', functionName: decodeURIComponent(match[1]) })}\n`,
    );
    const deadline = Date.now() + Number(timeoutSeconds) * 1000;
    const context = {
      awsRequestId: randomUUID(),
      functionName: decodeURIComponent(match[1]),
      functionVersion: '$LATEST',
      invokedFunctionArn: `arn:aws:lambda:us-east-1:123456789012:function:${match[1]}`,
      memoryLimitInMB: process.env.AWS_LAMBDA_FUNCTION_MEMORY_SIZE ?? '128',
      logGroupName: 'driver',
      logStreamName: 'driver',
      callbackWaitsForEmptyEventLoop: true,
      getRemainingTimeInMillis: () => Math.max(0, deadline - Date.now()),
      done: () => undefined,
      fail: () => undefined,
      succeed: () => undefined,
    };
    try {
      const text = Buffer.concat(chunks).toString('utf8');
      const result = await handler(text ? JSON.parse(text) : null, context);
      res.writeHead(200, { 'content-type': 'application/json' }).end(JSON.stringify(result ?? null));
    } catch (error) {
      // What Lambda answers for an unhandled error: status 200 with X-Amz-Function-Error.
      res.writeHead(200, { 'content-type': 'application/json', 'x-amz-function-error': 'Unhandled' }).end(
        JSON.stringify({
          errorType: error?.name ?? 'Error',
          errorMessage: String(error?.message ?? error),
        }),
      );
    }
  });
});

server.listen(0, '127.0.0.1', () => {
  process.stdout.write(`${JSON.stringify({ driver: 'listening', port: server.address().port, importMs })}\n`);
});
process.on('SIGTERM', () => {
  server.close(() => process.exit(0));
  server.closeAllConnections();
});
