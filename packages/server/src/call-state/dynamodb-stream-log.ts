import type { RequestId } from '../protocol/types.ts';
import { getItem, keyOf, ttlOf, type CallStateTable, type Item } from './dynamodb-table.ts';
import type { LoggedEvent, StreamLog } from './stores.ts';
import { CallStateTableAttributes } from './table.ts';

// Keys of their own, apart from questions' slots (22 characters, no dot).
const headKey = (streamId: string) => keyOf(`log.${streamId}`);
const eventKey = (streamId: string, position: number) => keyOf(`log.${streamId}.${position}`);
const ttl = (until: number) => ({ [CallStateTableAttributes.ttl]: ttlOf(until) });

/**
 * Stream logs in the call state's table: a head item `log.<stream>` (`caller`, `callId`, `ends`, `until`, `next`,
 * the events sent before the cut as JSON) and an item `log.<stream>.<position>` per later event (`data`, `last`),
 * each with the table's TTL. Reads are strongly consistent, so a reader sees an event on its next read. Writes are
 * plain puts of fresh keys: sent again by the SDK, they write the same item.
 */
export function dynamoStreamLog(table: CallStateTable): StreamLog {
  const put = async (Item: Item, signal?: AbortSignal) => {
    const { sdk, client } = await table.load();
    await client.send(new sdk.PutItemCommand({ TableName: table.name, Item }), { abortSignal: signal });
  };
  return {
    startLog: (head, signal) =>
      put(
        {
          ...headKey(head.streamId),
          caller: { S: head.caller },
          callId: { S: JSON.stringify(head.callId) },
          ends: { N: String(head.ends) },
          until: { N: String(head.until) },
          next: { N: String(head.next) },
          sent: { S: JSON.stringify(head.sent) },
          ...ttl(head.until),
        },
        signal,
      ),
    appendEvent: ({ streamId, event, until }, signal) =>
      put(
        {
          ...eventKey(streamId, event.position),
          data: { S: event.data },
          ...(event.last ? { last: { BOOL: true } } : {}),
          ...ttl(until),
        },
        signal,
      ),
    async readHead({ streamId, now }, signal) {
      const item = await getItem(table, headKey(streamId), signal);
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
    async readEvent({ streamId, position }, signal) {
      const item = await getItem(table, eventKey(streamId, position), signal);
      if (!item?.data?.S) return undefined;
      return { position, data: item.data.S, ...(item.last?.BOOL ? { last: true } : {}) };
    },
  };
}
