/**
 * The Artillery engine of the load command (load.ts): `--emit artillery DIR` writes the test of a scenario run and
 * says how to run it; `--from-artillery` reports a run of it from Artillery's JSON (text or JSON on stdout, the HTML page
 * --report names) with the exit status of a run of `npm run load`.
 */
import { relative } from 'node:path';
import { writeFileSync } from 'node:fs';
import type { ArtilleryCommand } from '../load/artillery/command.ts';
import { emitArtillery } from '../load/artillery/emit.ts';
import { renderArtilleryHtml } from '../load/artillery/report-html.ts';
import { formatArtilleryReport } from '../load/artillery/report-text.ts';
import { artilleryReport, readArtilleryOutput } from '../load/artillery/results.ts';

/** A path as the user would type it from here. */
const shown = (path: string) => relative(process.cwd(), path) || '.';

async function emit(command: Extract<ArtilleryCommand, { kind: 'emit' }>): Promise<number> {
  const emitted = await emitArtillery(command.options, command.folder);
  for (const note of emitted.notes) console.error(`note: ${note}`);
  const script = shown(emitted.script);
  console.log(
    [
      `wrote ${emitted.files.map(shown).join(', ')}`,
      `run it:    npx artillery run --output results.json ${script}`,
      `on Lambda: npx artillery run-lambda --region REGION --count N --output results.json ${script}` +
        ' (each of the N workers runs the whole script)',
      `report:    npm run load -- --from-artillery results.json --scenario ${command.options.scenario.file} ` +
        '--report report.html',
    ].join('\n'),
  );
  return 0;
}

function report(command: Extract<ArtilleryCommand, { kind: 'from-artillery' }>): number {
  let output;
  try {
    output = readArtilleryOutput(command.output);
  } catch (error) {
    const code = (error as { code?: string }).code;
    console.error(
      `--from-artillery: ${code ? `cannot read ${command.output} (${code})` : (error as Error).message}`,
    );
    return 1;
  }
  const result = artilleryReport(output, command.scenario, command.url);
  console.log(command.json ? JSON.stringify(result, null, 2) : formatArtilleryReport(result));
  if (command.report) {
    writeFileSync(command.report.path, renderArtilleryHtml(result));
    console.error(`report written to ${command.report.path}`);
  }
  return result.passed ? 0 : 1;
}

/** Runs an Artillery command; answers the exit status. */
export function runArtilleryCommand(command: ArtilleryCommand): Promise<number> | number {
  return command.kind === 'emit' ? emit(command) : report(command);
}
