/**
 * `npm run load -- --emit artillery DIR`: writes the Artillery test of a scenario run into a folder: the script
 * (script.ts), the plan each worker reads (plan.ts), and the processor (index.ts here, bundled with the step code it
 * runs into one file that needs nothing installed beside Artillery, so a Lambda or Fargate worker runs it as it is).
 */
import { mkdirSync, writeFileSync } from 'node:fs';
import { extname, join } from 'node:path';
import { fileURLToPath } from 'node:url';
import { build } from 'esbuild';
import type { ScenarioOptions } from '../scenario/types.ts';
import { plan, PLAN_FILE } from './plan.ts';
import { mapModel, PROCESSOR_FILE, scriptText } from './script.ts';

/** The script's file name in the folder. */
const SCRIPT_FILE = 'artillery.yml';

/** The processor's entry beside this module: its source inside this repository, its built module in the package. */
const PROCESSOR_ENTRY = fileURLToPath(
  new URL(`./index${extname(fileURLToPath(import.meta.url))}`, import.meta.url),
);

/** What was written: the files, and the notes on what the script runs differently from `npm run load`. */
export interface Emitted {
  script: string;
  files: string[];
  notes: string[];
}

/** Where the workers get their token, when the scenario says: it must work where they run. */
function authNote(options: ScenarioOptions): string[] {
  const auth = options.scenario.auth;
  if (auth === undefined) return [];
  const where =
    auth.type === 'client-credentials'
      ? `the environment variable ${auth.secretEnv} must be set on each worker`
      : auth.type === 'file'
        ? `${auth.path} must be there, relative to the folder each worker runs in`
        : 'its command must run there';
  return [`each worker gets its own token from the scenario's auth (${auth.type}): ${where}`];
}

/** Writes the Artillery test of `options` into `folder` (created when missing). */
export async function emitArtillery(options: ScenarioOptions, folder: string): Promise<Emitted> {
  mkdirSync(folder, { recursive: true });
  const mapping = mapModel(options);
  const planPath = join(folder, PLAN_FILE);
  const contents = plan({
    scenario: options.scenario,
    headers: options.headers,
    timeoutS: options.timeoutS,
    // One socket per flow run at once: a flow run sends its requests one after another.
    maxSockets: options.open ? options.open.maxInFlight : options.connections,
    ...(options.open
      ? {}
      : {
          closed: {
            durationS: options.durationS,
            ...(options.amount !== undefined ? { amount: options.amount } : {}),
          },
        }),
  });
  writeFileSync(planPath, `${JSON.stringify(contents, null, 2)}\n`);
  const processor = join(folder, PROCESSOR_FILE);
  await build({
    entryPoints: [PROCESSOR_ENTRY],
    outfile: processor,
    bundle: true,
    platform: 'node',
    format: 'esm',
    // Artillery awaits a processor function only when it is an async function: they must stay ones.
    target: 'node22',
    banner: {
      js: '// The processor of npm run load -- --emit artillery (@mcp-lambda/dev/artillery), bundled.',
    },
    logLevel: 'silent',
  });
  const script = join(folder, SCRIPT_FILE);
  writeFileSync(script, scriptText(options, mapping));
  return { script, files: [script, planPath, processor], notes: [...mapping.notes, ...authNote(options)] };
}
