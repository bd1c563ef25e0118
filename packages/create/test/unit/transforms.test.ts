import { describe, expect, it } from 'vitest';
import {
  appCdkJson,
  appInfraReadme,
  DOCS_NOTE,
  appManifest,
  appTsconfig,
  formatJson,
  keptToolsIndex,
  keptValidators,
  toolNames,
} from '../../src/transforms.ts';
import { APP_SCRIPTS } from '../../src/app-files.ts';
import { packageName } from '../../src/scaffold.ts';

/** A root package.json with what the transforms read, and a repository-only script and dependency. */
const ROOT_MANIFEST = JSON.stringify({
  engines: { node: '>=22' },
  workspaces: ['packages/server'],
  scripts: Object.fromEntries([...APP_SCRIPTS, 'bench'].map((name) => [name, `run ${name}`])),
  dependencies: { '@mcp-lambda/server': '0.0.1', '@mcp-lambda/bridge': '0.0.1', ajv: '^8.0.0' },
  devDependencies: Object.fromEntries(
    ['@types/aws-lambda', '@types/node', 'aws-cdk', 'aws-cdk-lib', 'cdk-nag', 'constructs']
      .concat(['esbuild', 'tsx', 'typescript', 'vitest', 'autocannon', '@mcp-lambda/cdk', '@mcp-lambda/dev'])
      .map((name) => [name, '^1.0.0']),
  ),
  allowScripts: { esbuild: true },
});

describe('the app package.json', () => {
  const manifest = JSON.parse(appManifest(ROOT_MANIFEST, { name: 'my-server', version: '2.3.4' }));

  it('depends on the @mcp-lambda packages at the given version and its patches, with no workspaces', () => {
    expect(manifest.dependencies['@mcp-lambda/server']).toBe('^2.3.4');
    expect(manifest.devDependencies['@mcp-lambda/dev']).toBe('^2.3.4');
    expect(manifest.workspaces).toBeUndefined();
  });

  it('keeps the app scripts only, and runs its tests with vitest', () => {
    expect(manifest.scripts.bench).toBeUndefined();
    expect(manifest.scripts.start).toBe('run start');
    expect(manifest.scripts.test).toBe('vitest run');
    expect(manifest.devDependencies.autocannon).toBeUndefined();
  });

  it('says which script the root lacks', () => {
    const root = JSON.parse(ROOT_MANIFEST);
    delete root.scripts.view;
    expect(() => appManifest(JSON.stringify(root), { name: 'x', version: '1.0.0' })).toThrow(
      'no script view',
    );
  });
});

describe('the app configuration', () => {
  it('tsconfig.json leaves out the packages and their source condition', () => {
    const root = {
      compilerOptions: { strict: true, customConditions: ['x'] },
      include: ['packages', 'src'],
      exclude: ['packages/a', 'src/views'],
    };
    expect(JSON.parse(appTsconfig(JSON.stringify(root)))).toEqual({
      compilerOptions: { strict: true },
      include: ['src'],
      exclude: ['src/views'],
    });
  });

  it.each([
    ['oauth', { api: 'http', auth: 'oauth', authCognito: true }],
    ['none', { api: 'http', auth: 'none' }],
  ] as const)('cdk.json holds auth %s and the API, before the feature flags', (auth, choices) => {
    const root = { app: 'a', watch: { include: ['src/**', 'packages/**'] }, context: { flag: true } };
    const app = JSON.parse(appCdkJson(JSON.stringify(root), { auth, api: 'http' }));
    expect(app.context).toEqual({ ...choices, flag: true });
    expect(app.watch.include).toEqual(['src/**']);
  });

  it('JSON keeps short arrays on one line, as Prettier does', () => {
    expect(formatJson({ a: ['x', 'y'] })).toBe('{\n  "a": ["x", "y"]\n}\n');
  });
});

describe('an app without the examples', () => {
  it('lists only the kept tool', () => {
    const index = [
      "import { a } from './a.ts';",
      "import { ping } from './ping.ts';",
      '',
      'export const tools: ToolDefinition[] = [',
      '  ping,',
      '  a,',
      '];',
    ].join('\n');
    expect(keptToolsIndex(index, ['ping.ts'], ['ping'])).toBe(
      ["import { ping } from './ping.ts';", '', 'export const tools: ToolDefinition[] = [ping];'].join('\n'),
    );
  });

  it('keeps the validator rows and modules of the remaining tools', () => {
    const table = [
      'export const validators = {',
      `  "ping#input": { hash: "1", load: () => import('./validators/ping.input.generated.ts') },`,
      `  "a#input": { hash: "2", load: () => import('./validators/a.input.generated.ts') },`,
      `  "b#input": { hash: "1", load: () => import('./validators/ping.input.generated.ts') },`,
      '};',
    ].join('\n');
    const kept = keptValidators(table, ['a', 'b']);
    expect(kept.table.split('\n')).toHaveLength(3);
    expect([...kept.modules]).toEqual(['ping.input.generated.ts']);
  });

  it('finds the names of the tools a module defines', () => {
    expect(toolNames("export const a = defineTool({\n  name: 'a_b',\n  handler: () => 'x' });")).toEqual([
      'a_b',
    ]);
  });
});

describe('the package name', () => {
  it.each([
    ['my-server', 'my-server'],
    ['/tmp/x/My Server', 'my-server'],
    ['.hidden', 'hidden'],
  ])('%s is %s', (folder, name) => expect(packageName(folder)).toBe(name));
});

describe("the app's infra/README.md", () => {
  const root = [
    '# Deploy',
    '',
    'See [docs/operations.md](../docs/operations.md#tracing) and [README.md](../README.md#configuration).',
    'Keep [a link](./stack.ts) and [another](https://example.com/x).',
    '',
  ].join('\n');

  it('makes each link out of the app plain text and says where those pages are', () => {
    expect(appInfraReadme(root)).toBe(
      [
        '# Deploy',
        '',
        DOCS_NOTE,
        '',
        'See docs/operations.md and README.md.',
        'Keep [a link](./stack.ts) and [another](https://example.com/x).',
        '',
      ].join('\n'),
    );
  });
});
