import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { BridgeStore, CodeGrant, RefreshFamily } from './store.ts';

/**
 * The bridge store in one DynamoDB table (on-demand): partition key `pk` (`code#<hash>` or `family#<id>`) and a
 * TTL attribute `expiresAt`, so DynamoDB deletes records after they stop mattering. Single use and rotation are
 * conditional writes, atomic per item; TTL deletion is lazy, so every read checks the times itself. The SDK is
 * loaded on first use and is not bundled (the Lambda runtime provides it).
 */

type Sdk = typeof import('@aws-sdk/client-dynamodb');
type Item = Record<string, AttributeValue>;

export interface DynamoStoreOptions {
  tableName: string;
  /** A local DynamoDB-compatible server (tests). */
  endpoint?: string;
  region?: string;
}

const S = (value: string): AttributeValue => ({ S: value });
const N = (value: number): AttributeValue => ({ N: String(value) });
const str = (item: Item, name: string) => item[name]?.S ?? '';
const num = (item: Item, name: string) => Number(item[name]?.N ?? 0);

const isConditionFailure = (error: unknown) =>
  (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

/** Creates the store; the client is created on the first call. */
export function createDynamoStore(options: DynamoStoreOptions): BridgeStore {
  let sdk: Promise<Sdk> | undefined;
  let client: Promise<InstanceType<Sdk['DynamoDBClient']>> | undefined;
  const load = () => (sdk ??= import('@aws-sdk/client-dynamodb'));
  const get = () =>
    (client ??= load().then(
      ({ DynamoDBClient }) =>
        new DynamoDBClient({
          maxAttempts: 2,
          ...(options.endpoint ? { endpoint: options.endpoint } : {}),
          ...(options.region ? { region: options.region } : {}),
        }),
    ));
  const TableName = options.tableName;

  async function read(pk: string, signal: AbortSignal): Promise<Item | undefined> {
    const { GetItemCommand } = await load();
    const out = await (
      await get()
    ).send(new GetItemCommand({ TableName, Key: { pk: S(pk) }, ConsistentRead: true }), {
      abortSignal: signal,
    });
    return out.Item;
  }

  async function revoke(familyId: string, retainUntil: number, signal: AbortSignal) {
    const { UpdateItemCommand } = await load();
    await (
      await get()
    ).send(
      new UpdateItemCommand({
        TableName,
        Key: { pk: S(`family#${familyId}`) },
        UpdateExpression: 'SET revoked = :yes, expiresAt = if_not_exists(expiresAt, :retain)',
        ExpressionAttributeValues: { ':yes': { BOOL: true }, ':retain': N(retainUntil) },
      }),
      { abortSignal: signal },
    );
  }

  const toFamily = (item: Item): RefreshFamily => ({
    id: str(item, 'pk').slice('family#'.length),
    clientHash: str(item, 'client'),
    subject: str(item, 'subject'),
    scope: str(item, 'scope'),
    resource: str(item, 'resource'),
    tokenHash: str(item, 'tokenHash'),
    expiresAt: num(item, 'expiresAt'),
  });

  return {
    async saveCode(codeHash, grant, retainUntil, signal) {
      const { PutItemCommand } = await load();
      await (
        await get()
      ).send(
        new PutItemCommand({
          TableName,
          Item: {
            pk: S(`code#${codeHash}`),
            client: S(grant.clientHash),
            redirectUri: S(grant.redirectUri),
            challenge: S(grant.codeChallenge),
            scope: S(grant.scope),
            subject: S(grant.subject),
            resource: S(grant.resource),
            codeExpiresAt: N(grant.expiresAt),
            expiresAt: N(retainUntil),
          },
          ConditionExpression: 'attribute_not_exists(pk)',
        }),
        { abortSignal: signal },
      );
    },

    async redeemCode(codeHash, familyId, signal) {
      const { UpdateItemCommand } = await load();
      const pk = `code#${codeHash}`;
      try {
        const out = await (
          await get()
        ).send(
          new UpdateItemCommand({
            TableName,
            Key: { pk: S(pk) },
            UpdateExpression: 'SET usedBy = :family',
            ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedBy) AND expiresAt > :now',
            ExpressionAttributeValues: { ':family': S(familyId), ':now': N(Math.floor(Date.now() / 1000)) },
            ReturnValues: 'ALL_NEW',
          }),
          { abortSignal: signal },
        );
        const item = out.Attributes ?? {};
        const grant: CodeGrant = {
          clientHash: str(item, 'client'),
          redirectUri: str(item, 'redirectUri'),
          codeChallenge: str(item, 'challenge'),
          scope: str(item, 'scope'),
          subject: str(item, 'subject'),
          resource: str(item, 'resource'),
          expiresAt: num(item, 'codeExpiresAt'),
        };
        return { kind: 'redeemed', grant };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const item = await read(pk, signal);
      if (!item?.usedBy) return { kind: 'unknown' };
      return { kind: 'replayed', familyId: str(item, 'usedBy') || undefined };
    },

    async createFamily(family, signal) {
      const { PutItemCommand } = await load();
      try {
        await (
          await get()
        ).send(
          new PutItemCommand({
            TableName,
            Item: {
              pk: S(`family#${family.id}`),
              client: S(family.clientHash),
              subject: S(family.subject),
              scope: S(family.scope),
              resource: S(family.resource),
              tokenHash: S(family.tokenHash),
              expiresAt: N(family.expiresAt),
            },
            ConditionExpression: 'attribute_not_exists(pk)',
          }),
          { abortSignal: signal },
        );
        return true;
      } catch (error) {
        if (isConditionFailure(error)) return false;
        throw error;
      }
    },

    async rotateRefresh(familyId, presentedHash, nextHash, clientHash, nowSeconds, signal) {
      const { UpdateItemCommand } = await load();
      const pk = `family#${familyId}`;
      try {
        const out = await (
          await get()
        ).send(
          new UpdateItemCommand({
            TableName,
            Key: { pk: S(pk) },
            UpdateExpression: 'SET tokenHash = :next ADD rotations :one',
            ConditionExpression:
              'tokenHash = :presented AND client = :client AND expiresAt > :now AND attribute_not_exists(revoked)',
            ExpressionAttributeValues: {
              ':next': S(nextHash),
              ':presented': S(presentedHash),
              ':client': S(clientHash),
              ':now': N(nowSeconds),
              ':one': N(1),
            },
            ReturnValues: 'ALL_NEW',
          }),
          { abortSignal: signal },
        );
        return { kind: 'rotated', family: toFamily(out.Attributes ?? {}) };
      } catch (error) {
        if (!isConditionFailure(error)) throw error;
      }
      const item = await read(pk, signal);
      if (!item) return { kind: 'unknown' };
      if (item.revoked?.BOOL) return { kind: 'revoked' };
      if (num(item, 'expiresAt') <= nowSeconds) return { kind: 'expired' };
      // The family is live but the token is not its current one, or the client differs: reuse of a rotated-out
      // (or stolen) token. OAuth 2.1 §4.3.1: revoke the whole family.
      await revoke(familyId, num(item, 'expiresAt'), signal);
      return { kind: 'reused' };
    },

    revokeFamily: revoke,
  };
}
