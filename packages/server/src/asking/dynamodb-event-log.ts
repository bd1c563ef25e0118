import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { RequestId } from '../protocol/types.ts';
import type { EventLog, LoggedEvent, StreamHead } from '../resume/event-log.ts';
import { RendezvousTableAttributes } from './rendezvous-table.ts';

/** An item outlives its log by this much before the table's TTL may delete it (TTL deletes late anyway). */
const TTL_GRACE_SECONDS = 60;

type Item = Record<string, AttributeValue>;

/** The rendezvous table and its lazily made client (dynamodb-rendezvous.ts). */
export interface RendezvousTable {
  name: string;
  load: () => Promise<{
    sdk: typeof import('@aws-sdk/client-dynamodb');
    client: import('@aws-sdk/client-dynamodb').DynamoDBClient;
  }>;
}

// Keys of their own, apart from questions' slots (22 characters, no dot).
const headKey = (streamId: string) => ({
  [RendezvousTableAttributes.partitionKey]: { S: `log.${streamId}` },
});
const eventKey = (streamId: string, position: number) => ({
  [RendezvousTableAttributes.partitionKey]: { S: `log.${streamId}.${position}` },
});
const ttlOf = (until: number) => ({
  [RendezvousTableAttributes.ttl]: { N: String(Math.ceil(until / 1000) + TTL_GRACE_SECONDS) },
});

/**
 * Event logs in the rendezvous table: a head item `log.<stream>` (`caller`, `callId`, `ends`, `until`, `next`, the
 * events sent before
 * the cut as JSON) and an item `log.<stream>.<position>` per later event (`data`, `last`), each with the table's TTL.
 * Reads are strongly consistent, so a reader sees an event on its next read. Writes are plain puts of fresh keys:
 * sent again by the SDK, they write the same item.
 */
export function dynamoEventLog(table: RendezvousTable): EventLog {
  const TableName = table.name;
  const get = async (Key: Item, signal?: AbortSignal) => {
    const { sdk, client } = await table.load();
    const out = await client.send(new sdk.GetItemCommand({ TableName, Key, ConsistentRead: true }), {
      abortSignal: signal,
    });
    return out.Item as Item | undefined;
  };
  const put = async (Item: Item, signal?: AbortSignal) => {
    const { sdk, client } = await table.load();
    await client.send(new sdk.PutItemCommand({ TableName, Item }), { abortSignal: signal });
  };
  return {
    startLog: (head: StreamHead, signal) =>
      put(
        {
          ...headKey(head.streamId),
          caller: { S: head.caller },
          callId: { S: JSON.stringify(head.callId) },
          ends: { N: String(head.ends) },
          until: { N: String(head.until) },
          next: { N: String(head.next) },
          sent: { S: JSON.stringify(head.sent) },
          ...ttlOf(head.until),
        },
        signal,
      ),
    appendEvent: (streamId, event: LoggedEvent, until, signal) =>
      put(
        {
          ...eventKey(streamId, event.position),
          data: { S: event.data },
          ...(event.last ? { last: { BOOL: true } } : {}),
          ...ttlOf(until),
        },
        signal,
      ),
    async readHead(streamId, now, signal) {
      const item = await get(headKey(streamId), signal);
      if (!item || !(Number(item.until?.N) > now)) return undefined;
      return {
        streamId,
        caller: item.caller?.S ?? '',
        callId: JSON.parse(item.callId?.S ?? 'null') as RequestId,
        ends: Number(item.ends?.N),
        until: Number(item.until!.N),
        next: Number(item.next?.N),
        sent: JSON.parse(item.sent?.S ?? '[]') as LoggedEvent[],
      };
    },
    async readEvent(streamId, position, signal) {
      const item = await get(eventKey(streamId, position), signal);
      if (!item?.data?.S) return undefined;
      return { position, data: item.data.S, ...(item.last?.BOOL ? { last: true } : {}) };
    },
  };
}
