/**
 * The entry of the offloader's lazily loaded chunk (`lazy-offloader.ts` imports it with `import()`). A bundle puts
 * each module in a chunk by the set of entries that reach it; importing the public module here gives every module
 * the start-up graph shares with this chunk the same set as the rest, so they stay in one start-up chunk instead of
 * being cut into many small files, each of which costs a cold start its own load.
 */
import '../index.ts';

export { createOffloader } from './offloader.ts';
