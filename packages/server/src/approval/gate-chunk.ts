/**
 * The entry of the approval gate's lazily loaded chunk (`tools.ts` imports it with `import()`). Importing the public
 * module gives every module the start-up graph shares with this chunk the same set of entries as the rest, so they
 * stay in the start-up chunks instead of being cut into small files, each a load of its own at cold start.
 */
import '../index.ts';

export { execute, propose } from './gate.ts';
