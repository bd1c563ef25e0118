/**
 * Where used approvals are recorded, so each runs its action at most once: `consume` records an approval's id and
 * says whether it was fresh. Records need to live only a little past the approval's expiry (a proof is refused
 * after that anyway; DynamoDB's TTL deletes items well after it). Every instance that may serve an approval must
 * share the ledger: the memory one suits one process (local runs, tests); a deployment uses DynamoDB
 * (`dynamoApprovalLedger`).
 */
export interface ApprovalLedger {
  /** Records `id` until `expiresAt` (epoch ms); true when it was not recorded before. Throws when unreachable. */
  consume(id: string, expiresAt: number, options?: { signal?: AbortSignal }): Promise<boolean>;
  /** True when every instance shares the records (not one process's memory). */
  readonly shared: boolean;
}

/**
 * How long a record outlives its approval: the gate checks a proof's expiry before it records the proof, so a replay
 * checked in the proof's last moment is recorded just after it; the first use must still be on record then.
 */
const KEEP_AFTER_EXPIRY_MS = 60_000;

/** A ledger in this process's memory (records are dropped a minute after their approval expired). */
export function memoryApprovalLedger(now: () => number = Date.now): ApprovalLedger {
  const used = new Map<string, number>();
  return {
    shared: false,
    async consume(id, expiresAt) {
      const at = now();
      for (const [key, until] of used) if (until + KEEP_AFTER_EXPIRY_MS < at) used.delete(key);
      if (used.has(id)) return false;
      used.set(id, expiresAt);
      return true;
    },
  };
}
