/**
 * The app's stack synthesizes as `npm run synth` makes it: infra/app.ts with the settings of cdk.json, the
 * functions bundled, and the AWS Solutions checks (a finding nobody acknowledged fails the synth).
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterAll, describe, expect, it } from 'vitest';
import { tools } from '../../src/tools/index.ts';

const SCRATCH = mkdtempSync(join(tmpdir(), 'app-synth-'));
afterAll(() => rmSync(SCRATCH, { recursive: true, force: true }));

describe("the app's stack", () => {
  it('synthesizes offline, with a dashboard row for each tool', () => {
    const out = join(SCRATCH, 'cdk.out');
    const env = {
      ...process.env,
      HOME: SCRATCH,
      CDK_HOME: SCRATCH,
      CDK_DISABLE_VERSION_CHECK: '1',
      AWS_EC2_METADATA_DISABLED: 'true',
    };
    execFileSync('npm', ['exec', '--no', '--', 'cdk', 'synth', '--quiet', '--output', out], {
      env,
      stdio: 'pipe',
    });
    const manifest = JSON.parse(readFileSync(join(out, 'manifest.json'), 'utf8'));
    const stack = Object.entries(manifest.artifacts as Record<string, { type: string }>).find(
      ([, artifact]) => artifact.type === 'aws:cloudformation:stack',
    )![0];
    const template = readFileSync(join(out, `${stack}.template.json`), 'utf8');
    for (const tool of tools) expect(template, tool.name).toContain(tool.name);
  }, 180_000);
});
