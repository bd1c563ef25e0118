/**
 * A local DynamoDB-compatible server for the store tests: `dynalite` (a dev dependency, in memory) on loopback,
 * with the bridge's table created as the stack creates it (partition key `pk`, on-demand).
 */
import { createRequire } from 'node:module';
import type { Server } from 'node:http';
import type { InstrumentClient } from '@mcp-lambda/server/backend';
import type { AddressInfo } from 'node:net';

export interface LocalDynamo {
  endpoint: string;
  tableName: string;
  close(): Promise<void>;
}

export async function startLocalDynamo(tableName = 'bridge-test'): Promise<LocalDynamo> {
  const require = createRequire(import.meta.url);
  const dynalite = require('dynalite') as (options: Record<string, unknown>) => Server;
  const server = dynalite({ createTableMs: 0, deleteTableMs: 0, updateTableMs: 0 });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const endpoint = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  Object.assign(process.env, {
    AWS_ACCESS_KEY_ID: 'local',
    AWS_SECRET_ACCESS_KEY: 'local',
    AWS_REGION: process.env.AWS_REGION ?? 'us-east-1',
  });
  const { CreateTableCommand, DynamoDBClient } = await import('@aws-sdk/client-dynamodb');
  const client = new DynamoDBClient({ endpoint, region: 'us-east-1' });
  await client.send(
    new CreateTableCommand({
      TableName: tableName,
      BillingMode: 'PAY_PER_REQUEST',
      AttributeDefinitions: [{ AttributeName: 'pk', AttributeType: 'S' }],
      KeySchema: [{ AttributeName: 'pk', KeyType: 'HASH' }],
    }),
  );
  client.destroy();
  return {
    endpoint,
    tableName,
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/** The static credentials `startLocalDynamo` puts in the environment, for clients given credentials explicitly. */
export const LOCAL_DYNAMO_CREDENTIALS = { accessKeyId: 'local', secretAccessKey: 'local' };

/**
 * Wraps an SDK client so that the first response to one of `commands` is lost after DynamoDB acted on it (a socket
 * reset): the SDK sends the same write again, as it does in production.
 */
export function losingFirstResponse(...commands: string[]): InstrumentClient {
  return (client) => {
    let lost = false;
    const stack = (client as unknown as { middlewareStack: { add: (...args: unknown[]) => void } })
      .middlewareStack;
    stack.add(
      (next: (args: unknown) => Promise<unknown>, context: { commandName?: string }) =>
        async (args: unknown) => {
          const out = await next(args);
          if (commands.includes(context.commandName ?? '') && !lost) {
            lost = true;
            throw Object.assign(new Error('socket hang up'), { code: 'ECONNRESET' });
          }
          return out;
        },
      { step: 'deserialize', priority: 'high' },
    );
    return client;
  };
}
