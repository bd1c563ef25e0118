/**
 * Vitest global setup: one temporary folder for the whole run. Test workers and the processes they start inherit
 * TMPDIR, so everything created under `os.tmpdir()` (the CDK's cloud assemblies, bundles, local S3 data, scratch
 * homes) lands in it, and it is removed when the run ends, even where a worker was stopped before its own cleanup.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export default function setup(): () => void {
  const folder = mkdtempSync(join(tmpdir(), 'mcp-template-test-'));
  process.env.TMPDIR = folder;
  return () => rmSync(folder, { recursive: true, force: true });
}
