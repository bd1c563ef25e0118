import type { Logger } from '../log.ts';

/** Who produced a result and for whom: what storing it needs to know besides the result. */
export interface OffloadContext {
  tool: string;
  requestId: string;
  /** The caller's opaque key, when authorization is on: stored outputs are bound to it. */
  principal?: string;
  /** Epoch ms at which the invocation is stopped: every write is aborted in time to answer before it. */
  deadline?: number;
  log: Logger;
  /** The tool that reads stored outputs a page at a time, when the server has it: the notice names it. */
  readTool?: string;
  /** Told the raw bytes of every successful store (per-tool metrics). */
  onStored?: (bytes: number) => void;
  /** Stops an explicit store's writes when it fires (the call's budget ran out, or it was cancelled). */
  signal?: AbortSignal;
}
