import type { AttributeValue } from '@aws-sdk/client-dynamodb';
import { awsClientConfig, lazyAwsClient, type AwsClientOptions } from '@mcp-lambda/server/auth';
import { sha256 } from './http.ts';
import { BridgeLimits } from './limits.ts';
import type {
  BridgeStore,
  CodeGrant,
  CodeRedemption,
  FamilyRecord,
  RefreshFamily,
  RotationCommit,
} from './store.ts';

/**
 * The bridge store in one DynamoDB table (on-demand): partition key `pk` (`code#<hash>`, `family#<id>` or
 * `subject#<hash>`) and a TTL attribute `expiresAt`, so DynamoDB deletes records after they stop mattering. Single
 * use and rotation are conditional writes, atomic per item; TTL deletion is lazy, so every read checks the times
 * itself. The client is the server package's lazily made one (bounded requests, tracing when asked); the SDK is
 * provided by the Lambda runtime and not bundled.
 */

type Item = Record<string, AttributeValue>;

/** Where the table is and how to reach it (request timeout default: the bridge's cap on one outbound call). */
export interface DynamoStoreOptions extends AwsClientOptions {
  tableName: string;
}

const S = (value: string): AttributeValue => ({ S: value });
const N = (value: number): AttributeValue => ({ N: String(value) });
const str = (item: Item, name: string) => item[name]?.S ?? '';
const num = (item: Item, name: string) => Number(item[name]?.N ?? 0);
const optional = (item: Item, name: string, kind: 'S' | 'N') =>
  item[name]?.[kind] === undefined ? {} : { [name]: kind === 'S' ? str(item, name) : num(item, name) };
const epoch = () => Math.floor(Date.now() / 1000);

const isConditionFailure = (error: unknown) =>
  (error as { name?: string } | undefined)?.name === 'ConditionalCheckFailedException';

const toGrant = (item: Item): CodeGrant => ({
  clientHash: str(item, 'client'),
  redirectUri: str(item, 'redirectUri'),
  codeChallenge: str(item, 'challenge'),
  scope: str(item, 'scope'),
  refresh: item.refresh?.BOOL === true,
  subject: str(item, 'subject'),
  resource: str(item, 'resource'),
  expiresAt: num(item, 'codeExpiresAt'),
  ...optional(item, 'upstream', 'S'),
});

const toFamily = (item: Item): RefreshFamily => ({
  id: str(item, 'pk').slice('family#'.length),
  clientHash: str(item, 'client'),
  subject: str(item, 'subject'),
  scope: str(item, 'scope'),
  resource: str(item, 'resource'),
  tokenHash: str(item, 'tokenHash'),
  ...optional(item, 'previousHash', 'S'),
  ...optional(item, 'rotatedAt', 'N'),
  issuedAt: num(item, 'issuedAt'),
  ...optional(item, 'upstream', 'S'),
  expiresAt: num(item, 'expiresAt'),
});

const codeItem = (codeHash: string, grant: CodeGrant, retainUntil: number): Item => ({
  pk: S(`code#${codeHash}`),
  client: S(grant.clientHash),
  redirectUri: S(grant.redirectUri),
  challenge: S(grant.codeChallenge),
  scope: S(grant.scope),
  refresh: { BOOL: grant.refresh },
  subject: S(grant.subject),
  resource: S(grant.resource),
  codeExpiresAt: N(grant.expiresAt),
  ...(grant.upstream !== undefined ? { upstream: S(grant.upstream) } : {}),
  expiresAt: N(retainUntil),
});

const familyItem = (family: RefreshFamily): Item => ({
  pk: S(`family#${family.id}`),
  client: S(family.clientHash),
  subject: S(family.subject),
  scope: S(family.scope),
  resource: S(family.resource),
  tokenHash: S(family.tokenHash),
  issuedAt: N(family.issuedAt),
  ...(family.upstream !== undefined ? { upstream: S(family.upstream) } : {}),
  expiresAt: N(family.expiresAt),
});

type Sdk = typeof import('@aws-sdk/client-dynamodb');
type UpdateInput = Omit<ConstructorParameters<Sdk['UpdateItemCommand']>[0], 'TableName'>;

/** The table and its lazily made client: what every operation needs. */
interface Table {
  name: string;
  load(): Promise<{ sdk: Sdk; client: InstanceType<Sdk['DynamoDBClient']> }>;
}

async function read(table: Table, pk: string, signal: AbortSignal): Promise<Item | undefined> {
  const { sdk, client } = await table.load();
  const command = new sdk.GetItemCommand({ TableName: table.name, Key: { pk: S(pk) }, ConsistentRead: true });
  return (await client.send(command, { abortSignal: signal })).Item;
}

/** An UpdateItem whose condition may fail: the attributes it returned, or false when the condition failed. */
async function update(table: Table, input: UpdateInput, signal: AbortSignal): Promise<Item | false> {
  const { sdk, client } = await table.load();
  try {
    const command = new sdk.UpdateItemCommand({ TableName: table.name, ...input });
    return (await client.send(command, { abortSignal: signal })).Attributes ?? {};
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

/** A PutItem of a new item: false when one with its key exists. */
async function put(table: Table, item: Item, signal: AbortSignal): Promise<boolean> {
  const { sdk, client } = await table.load();
  try {
    const command = new sdk.PutItemCommand({
      TableName: table.name,
      Item: item,
      ConditionExpression: 'attribute_not_exists(pk)',
    });
    await client.send(command, { abortSignal: signal });
    return true;
  } catch (error) {
    if (isConditionFailure(error)) return false;
    throw error;
  }
}

async function redeemCode(
  table: Table,
  codeHash: string,
  familyId: string,
  signal: AbortSignal,
): Promise<CodeRedemption> {
  const pk = `code#${codeHash}`;
  // ALL_OLD: the grant as it was, with the provider's token the update removes from the used code.
  const redeemed = await update(
    table,
    {
      Key: { pk: S(pk) },
      UpdateExpression: 'SET usedBy = :family REMOVE upstream',
      ConditionExpression: 'attribute_exists(pk) AND attribute_not_exists(usedBy) AND expiresAt > :now',
      ExpressionAttributeValues: { ':family': S(familyId), ':now': N(epoch()) },
      ReturnValues: 'ALL_OLD',
    },
    signal,
  );
  if (redeemed) return { kind: 'redeemed', grant: toGrant(redeemed) };
  const item = await read(table, pk, signal);
  if (!item?.usedBy) return { kind: 'unknown' };
  return { kind: 'replayed', familyId: str(item, 'usedBy') || undefined };
}

async function readFamily(table: Table, familyId: string, signal: AbortSignal): Promise<FamilyRecord> {
  const item = await read(table, `family#${familyId}`, signal);
  if (!item) return { kind: 'unknown' };
  if (item.revoked?.BOOL || !item.tokenHash) return { kind: 'revoked' };
  return { kind: 'family', family: toFamily(item) };
}

async function commitRotation(table: Table, r: RotationCommit, signal: AbortSignal): Promise<boolean> {
  const upstream: Item = r.upstream !== undefined ? { ':upstream': S(r.upstream) } : {};
  const applied = await update(
    table,
    {
      Key: { pk: S(`family#${r.familyId}`) },
      UpdateExpression:
        'SET tokenHash = :next, previousHash = :presented, rotatedAt = :now' +
        (r.upstream !== undefined ? ', upstream = :upstream' : '') +
        ' ADD rotations :one',
      ConditionExpression:
        'tokenHash = :presented AND client = :client AND expiresAt > :now AND attribute_not_exists(revoked)',
      ExpressionAttributeValues: {
        ':next': S(r.nextHash),
        ':presented': S(r.presentedHash),
        ':client': S(r.clientHash),
        ':now': N(r.nowSeconds),
        ':one': N(1),
        ...upstream,
      },
    },
    signal,
  );
  return applied !== false;
}

async function revokeFamily(table: Table, familyId: string, retainUntil: number, signal: AbortSignal) {
  await update(
    table,
    {
      Key: { pk: S(`family#${familyId}`) },
      UpdateExpression: 'SET revoked = :yes, expiresAt = if_not_exists(expiresAt, :retain) REMOVE upstream',
      ExpressionAttributeValues: { ':yes': { BOOL: true }, ':retain': N(retainUntil) },
    },
    signal,
  );
}

async function signOut(table: Table, subject: string, at: number, retainUntil: number, signal: AbortSignal) {
  // A later sign-out already recorded wins (the condition fails and nothing changes).
  await update(
    table,
    {
      Key: { pk: S(`subject#${sha256(subject)}`) },
      UpdateExpression: 'SET signedOutAt = :at, expiresAt = :retain',
      ConditionExpression: 'attribute_not_exists(signedOutAt) OR signedOutAt <= :at',
      ExpressionAttributeValues: { ':at': N(at), ':retain': N(retainUntil) },
    },
    signal,
  );
}

/** Creates the store; the SDK and client are made on the first call. */
export function createDynamoStore(options: DynamoStoreOptions): BridgeStore {
  const table: Table = {
    name: options.tableName,
    load: lazyAwsClient(
      () => import('@aws-sdk/client-dynamodb'),
      (sdk) => new sdk.DynamoDBClient(awsClientConfig(options, BridgeLimits.outboundTimeoutMs)),
      options.instrument,
    ),
  };
  return {
    async saveCode(codeHash, grant, retainUntil, signal) {
      if (!(await put(table, codeItem(codeHash, grant, retainUntil), signal)))
        throw new Error('Authorization code collision');
    },
    async readCode(codeHash, signal) {
      const item = await read(table, `code#${codeHash}`, signal);
      if (!item || num(item, 'expiresAt') <= epoch()) return undefined;
      return { grant: toGrant(item), usedBy: item.usedBy?.S };
    },
    redeemCode: (codeHash, familyId, signal) => redeemCode(table, codeHash, familyId, signal),
    createFamily: (family, signal) => put(table, familyItem(family), signal),
    readFamily: (familyId, signal) => readFamily(table, familyId, signal),
    commitRotation: (rotation, signal) => commitRotation(table, rotation, signal),
    revokeFamily: (familyId, retainUntil, signal) => revokeFamily(table, familyId, retainUntil, signal),
    signOut: (subject, at, retainUntil, signal) => signOut(table, subject, at, retainUntil, signal),
    async signedOutAt(subject, signal) {
      const item = await read(table, `subject#${sha256(subject)}`, signal);
      if (!item || num(item, 'expiresAt') <= epoch()) return undefined;
      return num(item, 'signedOutAt');
    },
  };
}
