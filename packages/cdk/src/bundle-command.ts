/**
 * Bundles one function with the shared settings: `node --import tsx bundle-command.ts ENTRY OUTDIR`, run in the
 * project root. The CDK's local bundling is synchronous, and esbuild runs plugins (`startup-chunk.ts`) only in its
 * asynchronous `build()`: `localBundling` runs this command in a child process and waits for it.
 */
import { build } from 'esbuild';
import { esbuildOptions, PROJECT_ROOT } from './bundling.ts';

const [entry, outdir] = process.argv.slice(2);
if (!entry || !outdir) throw new Error('usage: bundle-command.ts ENTRY OUTDIR');
await build({ ...esbuildOptions(entry, outdir), absWorkingDir: PROJECT_ROOT, metafile: false });
