/**
 * Imported first by the infra test helpers: aws-cdk-lib keeps a fingerprint cache under HOME and the CDK CLI reads
 * CDK_HOME, so both point at a scratch folder of this test process, never at the user's home.
 */
import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';

export const SCRATCH_HOME = mkdtempSync(join(tmpdir(), 'mcp-infra-home-'));
process.env.HOME = SCRATCH_HOME;
process.env.CDK_HOME = SCRATCH_HOME;
process.on('exit', () => rmSync(SCRATCH_HOME, { recursive: true, force: true }));
