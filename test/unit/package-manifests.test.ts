import { existsSync, readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import ts from 'typescript';
import { describe, expect, it } from 'vitest';
import { packages } from '../support/packages.ts';

/**
 * Each package's manifest says what users get: the dependencies its code imports and nothing else, the versions a
 * user owns as peer dependencies, the Node.js it runs on, and the documents it ships.
 */
const PACKAGES = packages();

/** Files a package ships as code: its sources (built into dist/) and its bin. */
function codeFiles(dir: string): string[] {
  return ['src', 'bin']
    .filter((folder) => existsSync(join(dir, folder)))
    .flatMap((folder) =>
      readdirSync(join(dir, folder), { recursive: true, encoding: 'utf8' })
        .filter((f) => /\.(ts|js)$/.test(f))
        .map((f) => join(dir, folder, f)),
    );
}

/** The package a bare specifier names (`@scope/name` or `name`), or undefined for a relative or built-in one. */
function packageOf(specifier: string): string | undefined {
  if (specifier.startsWith('.') || specifier.startsWith('node:') || specifier.includes('${'))
    return undefined;
  const parts = specifier.split('/');
  return specifier.startsWith('@') ? parts.slice(0, 2).join('/') : parts[0];
}

/**
 * Every package a package's code imports: static and dynamic imports, type imports (their declarations reach the
 * user's type checker, so `aws-lambda` means `@types/aws-lambda`), and modules loaded through `createRequire`.
 */
function importedPackages(dir: string, self: string): string[] {
  const found = new Set<string>();
  for (const file of codeFiles(dir)) {
    const text = readFileSync(file, 'utf8');
    const specifiers = ts.preProcessFile(text, true, true).importedFiles.map((f) => f.fileName);
    for (const [, required] of text.matchAll(/createRequire\(import\.meta\.url\)\('([^']+)'\)/g))
      specifiers.push(required!);
    for (const specifier of specifiers) {
      const name = packageOf(specifier);
      if (name && name !== self && !name.includes(' '))
        found.add(name === 'aws-lambda' ? '@types/aws-lambda' : name);
    }
  }
  return [...found].sort();
}

describe('package manifests', () => {
  it.each(PACKAGES.map((p) => [p.manifest.name, p] as const))(
    '%s declares exactly the packages its code imports',
    (_, { dir, manifest }) => {
      const declared = Object.keys({
        ...(manifest.dependencies as object),
        ...(manifest.peerDependencies as object),
      }).sort();
      // A bin may import its own package by name (the scaffolder's does): that is no dependency.
      expect(declared).toEqual(importedPackages(dir, manifest.name));
    },
  );

  it.each(PACKAGES.map((p) => [p.manifest.name, p] as const))(
    '%s is publishable: ESM on Node.js 22, MIT-0, with its README, CHANGELOG and LICENSE',
    (_, { dir, manifest }) => {
      expect(manifest.private).toBeUndefined();
      expect(manifest.type).toBe('module');
      expect(manifest.engines).toEqual({ node: '>=22' });
      expect(manifest.license).toBe('MIT-0');
      expect(manifest.files).toContain('dist');
      expect(manifest.files).toContain('CHANGELOG.md');
      for (const doc of ['README.md', 'CHANGELOG.md', 'LICENSE'])
        expect(existsSync(join(dir, doc)), doc).toBe(true);
      // The packages are released together, at one version (.changeset/config.json), and require each other at its
      // patches (docs/releasing.md): one copy of each in an app after `npm update`.
      const internal = Object.entries((manifest.dependencies ?? {}) as Record<string, string>).filter(
        ([name]) => name.startsWith('@mcp-lambda/'),
      );
      for (const [name, range] of internal) expect(range, name).toBe(`^${manifest.version}`);
    },
  );

  it('the CDK constructs leave aws-cdk-lib and constructs to the app, at any compatible version', () => {
    const cdk = PACKAGES.find((p) => p.folder === 'cdk')!.manifest;
    const peers = cdk.peerDependencies as Record<string, string>;
    expect(peers['aws-cdk-lib']).toMatch(/^\^2\./);
    expect(peers.constructs).toMatch(/^\^10\./);
    expect(Object.keys(cdk.dependencies as object)).not.toContain('aws-cdk-lib');
  });

  it('every package is released together, at one version', () => {
    const config = JSON.parse(readFileSync(join(PACKAGES[0]!.dir, '../../.changeset/config.json'), 'utf8'));
    // The scaffolder too: it writes an app on the packages of its own version.
    expect(config.fixed).toEqual([['@mcp-lambda/*', 'create-mcp-lambda']]);
    expect(new Set(PACKAGES.map((p) => p.manifest.version)).size).toBe(1);
  });

  it('hold no tracer that reaches end of support: no X-Ray SDK or Powertools Tracer anywhere in the tree', () => {
    const lock = JSON.parse(readFileSync(join(PACKAGES[0]!.dir, '../../package-lock.json'), 'utf8'));
    const installed = Object.keys(lock.packages as object);
    expect(
      installed.filter((path) => /node_modules\/(aws-xray-sdk|@aws-lambda-powertools\/tracer)/.test(path)),
    ).toEqual([]);
  });
});
