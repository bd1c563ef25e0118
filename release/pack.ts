/**
 * `npm run release:pack`: each package as users get it. The packages are built (`npm run build`), then each is
 * staged in a folder of its own with what it ships (dist/, README.md, CHANGELOG.md, LICENSE) and its manifest made
 * for users: exports without this repository's `@mcp-lambda/source` condition (it names sources that are not
 * shipped), no development scripts or dependencies. Then `npm pack` writes each tarball into `--out`, or, with
 * `--publish`, `npm publish` sends each version the registry does not have yet (with `--provenance` from CI).
 *
 * The release workflow publishes with it, and the tests pack with it, so what is tested is what is published.
 */
import { execFileSync } from 'node:child_process';
import { cpSync, existsSync, mkdirSync, mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join, resolve } from 'node:path';
import { parseArgs } from 'node:util';
import { fileURLToPath } from 'node:url';
import { publishManifest, RELEASE_ORDER, readPackage, shipped } from './manifest.ts';

const ROOT = resolve(fileURLToPath(new URL('..', import.meta.url)));

/** What `npm pack --json` says of one tarball. */
export interface Packed {
  name: string;
  version: string;
  filename: string;
  size: number;
  unpackedSize: number;
  files: { path: string; size: number }[];
}

const npm = (args: string[], cwd = ROOT) =>
  execFileSync('npm', args, { cwd, encoding: 'utf8', stdio: ['ignore', 'pipe', 'inherit'] });

/** Copies one package's shipped files and its manifest for users into `stage`. */
export function stage(folder: string, into: string): string {
  const dir = join(ROOT, 'packages', folder);
  const staged = join(into, folder);
  mkdirSync(staged, { recursive: true });
  const manifest = readPackage(dir);
  for (const file of shipped(manifest)) {
    if (!existsSync(join(dir, file)))
      throw new Error(`packages/${folder}/${file} is missing: run npm run build`);
    cpSync(join(dir, file), join(staged, file), { recursive: true });
  }
  writeFileSync(join(staged, 'package.json'), `${JSON.stringify(publishManifest(manifest), null, 2)}\n`);
  return staged;
}

/** Builds, stages and packs every package into `out`; returns what npm packed. */
export function packAll(out: string, options: { build?: boolean } = {}): Packed[] {
  if (options.build !== false) npm(['run', 'build', '--silent']);
  const stages = mkdtempSync(join(tmpdir(), 'mcp-lambda-stage-'));
  try {
    mkdirSync(out, { recursive: true });
    return RELEASE_ORDER.map((folder) => {
      const staged = stage(folder, stages);
      const [packed] = JSON.parse(npm(['pack', staged, '--json', '--pack-destination', out])) as Packed[];
      return packed!;
    });
  } finally {
    rmSync(stages, { recursive: true, force: true });
  }
}

/** Publishes each package whose version the registry lacks, in dependency order; prints changesets' tag lines. */
function publishAll(provenance: boolean): void {
  npm(['run', 'build', '--silent']);
  const stages = mkdtempSync(join(tmpdir(), 'mcp-lambda-stage-'));
  try {
    for (const folder of RELEASE_ORDER) {
      const { name, version } = readPackage(join(ROOT, 'packages', folder));
      if (published(name, version)) {
        console.log(`${name}@${version} is already published`);
        continue;
      }
      const flags = ['--access', 'public', ...(provenance ? ['--provenance'] : [])];
      npm(['publish', stage(folder, stages), ...flags]);
      // The changesets action reads these lines to tag the release and write its GitHub release.
      console.log(`New tag: ${name}@${version}`);
    }
  } finally {
    rmSync(stages, { recursive: true, force: true });
  }
}

/** Whether the registry already has this version (`npm view` fails with E404 for an unknown package). */
function published(name: string, version: string): boolean {
  try {
    return npm(['view', `${name}@${version}`, 'version']).trim() === version;
  } catch {
    return false;
  }
}

if (process.argv[1] && resolve(process.argv[1]) === fileURLToPath(import.meta.url)) {
  const { values } = parseArgs({
    options: {
      out: { type: 'string', default: join(ROOT, '.local', 'packs') },
      publish: { type: 'boolean', default: false },
      provenance: { type: 'boolean', default: false },
    },
  });
  if (values.publish) publishAll(values.provenance);
  else
    for (const p of packAll(values.out))
      console.log(`${p.filename}  ${p.files.length} files  ${p.size} B packed  ${p.unpackedSize} B unpacked`);
}
