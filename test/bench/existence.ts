/**
 * Part 10: whether the time of a refused read tells a caller that an output exists. Another caller's link and a
 * never-issued id must be answered alike, in words and in time: both read a key under the caller's own owner tag,
 * which holds nothing. Measured in one process against the local S3 stand-in, through `resources/read` and
 * `read_output`, the three kinds of id interleaved in a shuffled order (so drift and warm-up fall on all alike),
 * after a warm-up; the caller's own link is measured beside them as the reference of a found output.
 */
import { mkdtemp, rm } from 'node:fs/promises';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { LOCAL_S3_CREDENTIALS, startLocalS3 } from '@mcp-lambda/dev';
import { createOffloader, silentLogger, storedOutputPages, storedOutputs } from '@mcp-lambda/server/lambda';
import { s3RangeReader, s3Storage } from '@mcp-lambda/server/aws';
import { readQuery } from '../../packages/server/src/outputs/read-query.ts';
import { median, percentile } from './stats.ts';

const BUCKET = 'bench-existence';
const KINDS = ['own', 'other caller', 'never issued'] as const;
type Kind = (typeof KINDS)[number];

/** Time of one way of reading, per kind of id: median and p90 in ms, and what was answered. */
interface ExistenceRow {
  path: 'resources/read' | 'read_output';
  kind: Kind;
  tries: number;
  medianMs: number;
  p90Ms: number;
  answer: string;
}

/** Another caller's link less a never-issued id, by path: the median difference and its 95% bootstrap interval. */
interface ExistenceGap {
  path: ExistenceRow['path'];
  differenceMs: number;
  lowMs: number;
  highMs: number;
}

export interface ExistenceResult {
  tries: number;
  rows: ExistenceRow[];
  gaps: ExistenceGap[];
}

/** Resamples for the interval of a median difference. */
const RESAMPLES = 400;

/** The difference of medians `a` − `b` and its 95% interval, by resampling each list with replacement. */
function medianGap(a: readonly number[], b: readonly number[], random: () => number) {
  const resample = (list: readonly number[]) =>
    median(Array.from({ length: list.length }, () => list[Math.floor(random() * list.length)]!));
  const gaps = Array.from({ length: RESAMPLES }, () => resample(a) - resample(b)).sort((x, y) => x - y);
  return {
    differenceMs: median(a) - median(b),
    lowMs: gaps[Math.floor(RESAMPLES * 0.025)]!,
    highMs: gaps[Math.ceil(RESAMPLES * 0.975) - 1]!,
  };
}

/** A deterministic generator (mulberry32), so runs compare. */
function generator(seed: number): () => number {
  let state = seed;
  return () => {
    state = (state + 0x6d2b79f5) | 0;
    let t = Math.imul(state ^ (state >>> 15), 1 | state);
    t = (t + Math.imul(t ^ (t >>> 7), 61 | t)) ^ t;
    return ((t ^ (t >>> 14)) >>> 0) / 4294967296;
  };
}

/** A deterministic shuffle. */
function shuffled<T>(items: T[], random = generator(7)): T[] {
  for (let i = items.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [items[i], items[j]] = [items[j]!, items[i]!];
  }
  return items;
}

type Read = Record<ExistenceRow['path'], (kind: Kind) => Promise<string>>;

/** Stores one output for alice; reads by each kind of id through both paths, answering what each answered. */
async function readers(bucket: {
  bucket: string;
  endpoint: string;
  credentials: typeof LOCAL_S3_CREDENTIALS;
}) {
  const storage = s3Storage(bucket);
  const offloader = createOffloader({ storage, prefix: 'outputs/', thresholdBytes: 16, ttlDays: 1 });
  const stored = await offloader.apply(
    { content: [{ type: 'text', text: 'a stored output\n'.repeat(10) }] },
    { tool: 'bench', requestId: 'bench', log: silentLogger, principal: 'alice' },
  );
  const own = stored.content.find((b) => b.type === 'resource_link')!.uri;
  const uris: Record<Kind, string> = {
    own,
    'other caller': own,
    'never issued': own.replace(/[0-9a-f]{32}/, 'f'.repeat(32)),
  };
  const principal = (kind: Kind) => (kind === 'own' ? 'alice' : 'mallory');
  const ctx = (kind: Kind) => ({
    era: 'handshake' as const,
    requestId: 'r',
    log: silentLogger,
    principal: principal(kind),
  });
  const reader = storedOutputs({ storage, prefix: 'outputs/' });
  const pages = storedOutputPages({ storage: s3RangeReader(bucket), prefix: 'outputs/' });
  const query = readQuery({ uri: own }, 8192);
  if ('refuse' in query) throw new Error(query.refuse);
  const read: Read = {
    'resources/read': async (kind) => ((await reader.read(uris[kind], ctx(kind))) ? 'found' : 'not found'),
    read_output: async (kind) => (await pages.readPage(uris[kind], query, ctx(kind))).status,
  };
  return read;
}

/** Every read of the shuffled plan timed, after a warm-up, by `path|kind`. */
async function timeReads(read: Read, tries: number) {
  const times = new Map<string, number[]>();
  const answers = new Map<string, Set<string>>();
  const plan = shuffled(
    (Object.keys(read) as ExistenceRow['path'][]).flatMap((path) =>
      KINDS.flatMap((kind) => Array.from({ length: tries }, () => ({ path, kind }))),
    ),
  );
  for (const { path, kind } of plan.slice(0, 200)) await read[path](kind);
  for (const { path, kind } of plan) {
    const started = performance.now();
    const answer = await read[path](kind);
    const ms = performance.now() - started;
    const key = `${path}|${kind}`;
    if (!times.has(key)) times.set(key, []);
    times.get(key)!.push(ms);
    answers.set(key, (answers.get(key) ?? new Set()).add(answer));
  }
  return { times, answers };
}

/** Times `tries` reads of each kind of id through both paths, interleaved. */
export async function measureExistence(tries: number): Promise<ExistenceResult> {
  const directory = await mkdtemp(join(tmpdir(), 'bench-existence-'));
  const s3 = await startLocalS3({ directory, bucket: BUCKET });
  try {
    const read = await readers({ bucket: BUCKET, endpoint: s3.endpoint, credentials: LOCAL_S3_CREDENTIALS });
    const { times, answers } = await timeReads(read, tries);
    const round = (n: number) => Math.round(n * 1000) / 1000;
    const rows = [...times].map(([key, list]): ExistenceRow => {
      const [path, kind] = key.split('|') as [ExistenceRow['path'], Kind];
      const answer = [...answers.get(key)!].join(', ');
      return {
        path,
        kind,
        tries: list.length,
        medianMs: round(median(list)),
        p90Ms: round(percentile(list, 90)),
        answer,
      };
    });
    rows.sort((a, b) => a.path.localeCompare(b.path) || KINDS.indexOf(a.kind) - KINDS.indexOf(b.kind));
    const random = generator(11);
    const gaps = (Object.keys(read) as ExistenceRow['path'][]).map((path) => ({
      path,
      ...medianGap(times.get(`${path}|other caller`)!, times.get(`${path}|never issued`)!, random),
    }));
    return { tries, rows, gaps };
  } finally {
    await s3.stop();
    await rm(directory, { recursive: true, force: true });
  }
}
