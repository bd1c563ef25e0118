import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import type { BridgeStore, CodeGrant, CodeRedemption, RefreshFamily, Rotation } from './store.ts';

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

/** The table and a lazily created client: what every operation needs. */
interface Table {
  name: string;
  sdk(): Promise<Sdk>;
  send: InstanceType<Sdk['DynamoDBClient']>['send'];
}

function openTable(options: DynamoStoreOptions): Table {
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
  return {
    name: options.tableName,
    sdk: load,
    send: (async (command: never, o: never) => (await get()).send(command, o)) as Table['send'],
  };
}

async function read(table: Table, pk: string, signal: AbortSignal): Promise<Item | undefined> {
  const { GetItemCommand } = await table.sdk();
  const out = await table.send(
    new GetItemCommand({ TableName: table.name, Key: { pk: S(pk) }, ConsistentRead: true }),
    {
      abortSignal: signal,
    },
  );
  return out.Item;
}

async function revoke(
  table: Table,
  familyId: string,
  retainUntil: number,
  signal: AbortSignal,
): Promise<void> {
  const { UpdateItemCommand } = await table.sdk();
  await table.send(
    new UpdateItemCommand({
      TableName: table.name,
      Key: { pk: S(`family#${familyId}`) },
      UpdateExpression: 'SET revoked = :yes, expiresAt = if_not_exists(expiresAt, :retain)',
      ExpressionAttributeValues: { ':yes': { BOOL: true }, ':retain': N(retainUntil) },
    }),
    { abortSignal: signal },
  );
}

const toGrant = (item: Item): CodeGrant => ({
  clientHash: str(item, 'client'),
  redirectUri: str(item, 'redirectUri'),
  codeChallenge: str(item, 'challenge'),
  scope: str(item, 'scope'),
  refresh: item.refresh?.BOOL === true,
  subject: str(item, 'subject'),
  resource: str(item, 'resource'),
  expiresAt: num(item, 'codeExpiresAt'),
});

const toFamily = (item: Item): RefreshFamily => ({
  id: str(item, 'pk').slice('family#'.length),
  clientHash: str(item, 'client'),
  subject: str(item, 'subject'),
  scope: str(item, 'scope'),
  resource: str(item, 'resource'),
  tokenHash: str(item, 'tokenHash'),
  expiresAt: num(item, 'expiresAt'),
});

async function saveCode(
  table: Table,
  codeHash: string,
  grant: CodeGrant,
  retainUntil: number,
  signal: AbortSignal,
) {
  const { PutItemCommand } = await table.sdk();
  await table.send(
    new PutItemCommand({
      TableName: table.name,
      Item: {
        pk: S(`code#${codeHash}`),
        client: S(grant.clientHash),
        redirectUri: S(grant.redirectUri),
        challenge: S(grant.codeChallenge),
        scope: S(grant.scope),
        refresh: { BOOL: grant.refresh },
        subject: S(grant.subject),
        resource: S(grant.resource),
        codeExpiresAt: N(grant.expiresAt),
        expiresAt: N(retainUntil),
      },
      ConditionExpression: 'attribute_not_exists(pk)',
    }),
    { abortSignal: signal },
  );
}

async function redeemCode(
  table: Table,
  codeHash: string,
  familyId: string,
  signal: AbortSignal,
): Promise<CodeRedemption> {
  const { UpdateItemCommand } = await table.sdk();
  const pk = `code#${codeHash}`;
  try {
    const out = await table.send(
      new UpdateItemCommand({
        TableName: table.name,
        Key: { pk: S(pk) },
        UpdateExpression: 'SET usedBy = :family',
        ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedBy) AND expiresAt > :now',
        ExpressionAttributeValues: { ':family': S(familyId), ':now': N(Math.floor(Date.now() / 1000)) },
        ReturnValues: 'ALL_NEW',
      }),
      { abortSignal: signal },
    );
    return { kind: 'redeemed', grant: toGrant(out.Attributes ?? {}) };
  } catch (error) {
    if (!isConditionFailure(error)) throw error;
  }
  const item = await read(table, pk, signal);
  if (!item?.usedBy) return { kind: 'unknown' };
  return { kind: 'replayed', familyId: str(item, 'usedBy') || undefined };
}

async function createFamily(table: Table, family: RefreshFamily, signal: AbortSignal): Promise<boolean> {
  const { PutItemCommand } = await table.sdk();
  try {
    await table.send(
      new PutItemCommand({
        TableName: table.name,
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
}

interface RotateRequest {
  familyId: string;
  presentedHash: string;
  nextHash: string;
  clientHash: string;
  nowSeconds: number;
}

async function rotateRefresh(table: Table, r: RotateRequest, signal: AbortSignal): Promise<Rotation> {
  const { UpdateItemCommand } = await table.sdk();
  const pk = `family#${r.familyId}`;
  try {
    const out = await table.send(
      new UpdateItemCommand({
        TableName: table.name,
        Key: { pk: S(pk) },
        UpdateExpression: 'SET tokenHash = :next ADD rotations :one',
        ConditionExpression:
          'tokenHash = :presented AND client = :client AND expiresAt > :now AND attribute_not_exists(revoked)',
        ExpressionAttributeValues: {
          ':next': S(r.nextHash),
          ':presented': S(r.presentedHash),
          ':client': S(r.clientHash),
          ':now': N(r.nowSeconds),
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
  const item = await read(table, pk, signal);
  if (!item) return { kind: 'unknown' };
  if (item.revoked?.BOOL) return { kind: 'revoked' };
  if (num(item, 'expiresAt') <= r.nowSeconds) return { kind: 'expired' };
  // The family is live but the token is not its current one, or the client differs: reuse of a rotated-out
  // (or stolen) token. OAuth 2.1 §4.3.1: revoke the whole family.
  await revoke(table, r.familyId, num(item, 'expiresAt'), signal);
  return { kind: 'reused' };
}

/** Creates the store; the client is created on the first call. */
export function createDynamoStore(options: DynamoStoreOptions): BridgeStore {
  const table = openTable(options);
  return {
    saveCode: (codeHash, grant, retainUntil, signal) => saveCode(table, codeHash, grant, retainUntil, signal),
    redeemCode: (codeHash, familyId, signal) => redeemCode(table, codeHash, familyId, signal),
    createFamily: (family, signal) => createFamily(table, family, signal),
    rotateRefresh: (familyId, presentedHash, nextHash, clientHash, nowSeconds, signal) =>
      rotateRefresh(table, { familyId, presentedHash, nextHash, clientHash, nowSeconds }, signal),
    revokeFamily: (familyId, retainUntil, signal) => revoke(table, familyId, retainUntil, signal),
  };
}
