// A stand-in for the Lambda Node.js runtime's response streaming, run by a plain Node.js process (no TypeScript
// loader, no test runner): it defines the `awslambda` global as the runtime does before loading a handler
// (`streamifyResponse` marks the handler; `HttpResponseStream.from` makes the first write send the JSON prelude and
// 8 NUL bytes), imports one deployed bundle, invokes its `streamingHandler` with each REST API event given on the
// command line, and prints what the stream received, as JSON lines.
// Usage: node lambda-stream-driver.mjs <bundle index.mjs> <event JSON>...
import { randomUUID } from 'node:crypto';
import { Writable } from 'node:stream';
import { pathToFileURL } from 'node:url';

const STREAMING = Symbol.for('aws.lambda.runtime.handler.streaming');
const marked = [];
globalThis.awslambda = {
  streamifyResponse(handler) {
    handler[STREAMING] = 'response';
    marked.push(handler);
    return handler;
  },
  HttpResponseStream: {
    from(stream, prelude) {
      const write = stream.write.bind(stream);
      let first = true;
      stream.write = (chunk, ...rest) => {
        if (first) {
          first = false;
          write(JSON.stringify(prelude));
          write(new Uint8Array(8));
        }
        return write(chunk, ...rest);
      };
      return stream;
    },
  },
};

const [bundle, ...events] = process.argv.slice(2);
const { streamingHandler } = await import(pathToFileURL(bundle).href);
process.stdout.write(
  `${JSON.stringify({ driver: 'loaded', streamified: marked.includes(streamingHandler) && streamingHandler[STREAMING] === 'response' })}\n`,
);

for (const event of events) {
  const chunks = [];
  const stream = new Writable({
    write(chunk, _encoding, callback) {
      chunks.push(Buffer.from(chunk));
      callback();
    },
  });
  const context = {
    awsRequestId: randomUUID(),
    functionName: 'driver',
    callbackWaitsForEmptyEventLoop: true,
    getRemainingTimeInMillis: () => 60_000,
  };
  await streamingHandler(JSON.parse(event), stream, context);
  const all = Buffer.concat(chunks);
  const at = all.indexOf(Buffer.alloc(8));
  process.stdout.write(
    `${JSON.stringify({
      driver: 'answered',
      ended: stream.writableFinished,
      prelude: JSON.parse(all.subarray(0, at).toString('utf8')),
      body: all.subarray(at + 8).toString('utf8'),
    })}\n`,
  );
}
