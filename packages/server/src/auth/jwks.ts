import { createLocalJWKSet, errors, type FlattenedJWSInput, type JWTHeaderParameters } from 'jose';
import { deadlineSignal, untilAborted } from '../deadline.ts';
import { fetchJsonObject, type RemoteJsonOptions } from './remote-json.ts';

/** How the issuer's signing keys are fetched and kept. */
export interface KeySetOptions extends RemoteJsonOptions {
  /** The key set URL, or a function that finds it (issuer discovery); resolved once, on the first token. */
  jwksUri: string | (() => Promise<string>);
  /** Keys older than this are refetched (the old ones stay in use if that fails). Default 10 minutes. */
  maxAgeMs?: number;
  /**
   * At most one refetch per this many ms, whatever the key ids tokens name, so made-up key ids cannot hammer the
   * issuer; it is also the longest a genuinely new key can wait to be found. Default 5 seconds.
   */
  refetchIntervalMs?: number;
  /** A key id still unknown after a refetch makes no new refetch for this many ms. Default 30 seconds. */
  cooldownMs?: number;
  /**
   * Whether a token naming an unknown key id may trigger a refetch at all (e.g. only when its issuer, audience
   * and expiry could pass). Default: any token may.
   */
  mayRefetchFor?: (token: FlattenedJWSInput) => boolean;
  /** After a failed fetch with no keys in hand, wait this long before trying again. Default 2 seconds. */
  retryMs?: number;
  /** Clock in epoch ms (tests). */
  now?: () => number;
}

/** The issuer's keys could not be obtained: not the caller's fault, so the answer is 503, not 401. */
export class KeysUnavailableError extends Error {
  constructor(cause: unknown) {
    super('The authorization server signing keys are unavailable', { cause });
    this.name = 'KeysUnavailableError';
  }
}

type LocalSet = ReturnType<typeof createLocalJWKSet>;

/**
 * The issuer's JSON Web Key Set, fetched lazily on the first token and cached in the container, so warm
 * invocations verify without any network call. A token signed with a key id we do not know triggers one refetch
 * (keys rotate): at most one per refetch interval, only for plausible tokens, and not again for a key id that was
 * still unknown after one (docs/authorization.md "The resource server"); concurrent requests share a single fetch.
 */
export class RemoteKeySet {
  private local: LocalSet | undefined;
  private uri: string | undefined;
  private fetchedAt = -Infinity;
  private attemptedAt = -Infinity;
  private lastFailure: unknown;
  private pending: Promise<void> | undefined;
  /** Key ids found unknown after a refetch, with when: they trigger no refetch during the cooldown. */
  private readonly unknownKids = new Map<string, number>();
  private readonly now: () => number;
  /** Completed and failed fetch attempts of the key set (observability and tests). */
  fetches = 0;

  constructor(private readonly options: KeySetOptions) {
    this.now = options.now ?? Date.now;
  }

  /**
   * The key resolver handed to jose's `jwtVerify`. `deadline` (epoch ms) bounds how long this request waits for a
   * fetch: past it, the request gives up with KeysUnavailableError (503) while the fetch goes on for the others.
   */
  readonly resolve = async (header: JWTHeaderParameters, token: FlattenedJWSInput, deadline?: number) => {
    const now = this.now();
    if (!this.local) {
      if (this.pending || now - this.attemptedAt >= (this.options.retryMs ?? 2_000))
        await this.waitFor(this.refresh(), deadline);
      if (!this.local) throw new KeysUnavailableError(this.lastFailure);
    } else if (now - this.fetchedAt >= (this.options.maxAgeMs ?? 600_000)) {
      await this.refreshWithinInterval(now, deadline);
    }
    try {
      return await this.local(header, token);
    } catch (error) {
      if (!(error instanceof errors.JWKSNoMatchingKey)) throw error;
      // Perhaps the issuer rotated its keys since we fetched them: look once more, unless that cannot help.
      if (!this.mayRefetchFor(header.kid, token, now)) throw error;
      if (!(await this.refreshWithinInterval(now, deadline))) throw error;
      try {
        return await this.local(header, token);
      } catch (again) {
        if (again instanceof errors.JWKSNoMatchingKey) this.rememberUnknown(header.kid, now);
        throw again;
      }
    }
  };

  /** A refetch for an unknown key id is worth it only for a plausible token whose key id is not known to be junk. */
  private mayRefetchFor(kid: string | undefined, token: FlattenedJWSInput, now: number): boolean {
    const seen = this.unknownKids.get(kid ?? '');
    if (seen !== undefined && now - seen < (this.options.cooldownMs ?? 30_000)) return false;
    return this.options.mayRefetchFor?.(token) ?? true;
  }

  /** Remembers a junk key id; the memory is bounded, so a flood of distinct ids cannot grow it without end. */
  private rememberUnknown(kid: string | undefined, now: number): void {
    if (this.unknownKids.size >= 1_000) this.unknownKids.clear();
    this.unknownKids.set(kid ?? '', now);
  }

  /**
   * Refetches unless the last attempt was within the refetch interval; joins a fetch already under way. True when
   * the keys were (or are being) looked up again, so the caller should try matching once more.
   */
  private async refreshWithinInterval(now: number, deadline: number | undefined): Promise<boolean> {
    if (this.pending) {
      await this.waitFor(this.pending, deadline);
      return true;
    }
    if (now - this.attemptedAt < (this.options.refetchIntervalMs ?? 5_000)) return false;
    await this.waitFor(this.refresh(), deadline);
    return true;
  }

  /** Waits for a fetch until the request's deadline; then fails this request only (503). */
  private async waitFor(fetch: Promise<void>, deadline: number | undefined): Promise<void> {
    try {
      await untilAborted(fetch, deadlineSignal(deadline));
    } catch (error) {
      throw new KeysUnavailableError(error);
    }
  }

  /** One fetch at a time; a failure keeps the keys we already have. */
  private refresh(): Promise<void> {
    this.pending ??= this.fetch().finally(() => {
      this.pending = undefined;
    });
    return this.pending;
  }

  private async fetch(): Promise<void> {
    this.attemptedAt = this.now();
    this.fetches += 1;
    try {
      this.uri ??=
        typeof this.options.jwksUri === 'string' ? this.options.jwksUri : await this.options.jwksUri();
      const document = await fetchJsonObject(this.uri, this.options);
      this.local = createLocalJWKSet(document as unknown as Parameters<typeof createLocalJWKSet>[0]);
      this.fetchedAt = this.now();
      this.lastFailure = undefined;
    } catch (error) {
      this.lastFailure = error;
    }
  }
}
