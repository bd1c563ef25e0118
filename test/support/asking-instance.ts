/**
 * One instance of an asking MCP server in a process of its own, as Lambda runs each instance: the streaming adapter
 * behind the local REST API emulation, sessions sealed with SESSION_KEY, the call state (questions, cancellations,
 * stream logs) in the DynamoDB table CALL_STATE_TABLE at DYNAMODB_ENDPOINT. Prints `{"url": ...}` once it listens. Two of them sharing the table show that an
 * answer POSTed to one reaches the call waiting on the other, that a stream cut on one resumes on the other, and
 * that a cancellation POSTed to one stops the call running on the other.
 */
import { silentLogger } from '@mcp-lambda/server/lambda';
import { dynamoCallState } from '@mcp-lambda/server/aws';
import { askingFixtureTools } from '../interop/asking-tools.ts';
import { LOCAL_DYNAMO_CREDENTIALS, serveStreamingServer } from '@mcp-lambda/dev/testing';
import { resumeFixtureTools } from '../interop/resume-tools.ts';
import { cancelFixtureTools } from '../interop/cancel-tools.ts';

const { CALL_STATE_TABLE, DYNAMODB_ENDPOINT, SESSION_KEY, STREAM_LOG_AFTER_MS } = process.env;
const server = await serveStreamingServer(
  {
    info: { name: 'asking-instance', version: '1.0.0' },
    tools: [...askingFixtureTools, ...resumeFixtureTools, ...cancelFixtureTools],
    logging: true,
    sessions: { keys: [SESSION_KEY!] },
    callState: dynamoCallState({
      table: CALL_STATE_TABLE!,
      endpoint: DYNAMODB_ENDPOINT!,
      credentials: LOCAL_DYNAMO_CREDENTIALS,
    }),
    askPollIntervalMs: 50,
    // Cut streams (resume-sdk.test.ts): clients resume soon, and reads of the log are as frequent as of answers.
    // STREAM_LOG_AFTER_MS (cancel-sdk.test.ts): a call starts its log, and watches for its cancellation, that soon.
    http: {
      streamRetryMs: 200,
      ...(STREAM_LOG_AFTER_MS ? { streamLogAfterMs: Number(STREAM_LOG_AFTER_MS) } : {}),
    },
  },
  { log: silentLogger },
);
process.stdout.write(`${JSON.stringify({ url: server.url })}\n`);
process.on('SIGTERM', () => void server.close().then(() => process.exit(0)));
