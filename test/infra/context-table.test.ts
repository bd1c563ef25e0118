import { readFileSync } from 'node:fs';
import { describe, expect, it } from 'vitest';
import { CONTEXT_KEYS } from '@mcp-lambda/cdk';

// The app's settings are read from CDK context by @mcp-lambda/cdk; infra/README.md is where a user looks them up.

describe('the configuration table of infra/README.md', () => {
  it('has a row for every context key the app reads', () => {
    const readme = readFileSync(new URL('../../infra/README.md', import.meta.url), 'utf8');
    const rows = CONTEXT_KEYS.filter((key) => new RegExp(`^\\|\\s*\`${key}\`\\s*\\|`, 'm').test(readme));
    expect(rows).toEqual([...CONTEXT_KEYS]);
  });
});
