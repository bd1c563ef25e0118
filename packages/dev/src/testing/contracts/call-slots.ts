import { randomBytes } from 'node:crypto';

/**
 * Keys of the call state's checks: each check asks in slots of its own (22 base64url characters, as a call's slot
 * and a question's id are), so checks may share one table.
 */

/** A fresh slot or question id. */
export const freshId = () => randomBytes(16).toString('base64url');

/** Two callers: the one a question is asked of, and another. */
export const CALLERS = { me: 'caller-me', other: 'caller-other' } as const;
