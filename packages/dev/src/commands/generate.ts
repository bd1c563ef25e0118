/**
 * `npm run generate`: what the app's code needs generated before it runs or is bundled, from the app's folder.
 * The tool validators (every schema of `src/tools/index.ts`'s tools compiled once, so the deployed function never
 * compiles one) into `src/generated/validators.generated.ts` and the folder beside it; each view
 * (`src/views/<name>/`) as one self-contained HTML document into `src/generated/views/`. The CDK runs it before
 * bundling, `npm start` the views part, and a test fails when the committed files are stale.
 */
import { join } from 'node:path';
import { parseArgs } from 'node:util';
import { APP_LAYOUT, generateViews, writeValidators } from '@mcp-lambda/server/build';

export const usage =
  'usage: npm run generate [-- validators|views] [--out FOLDER] [--verbose]\n' +
  `  The tool validators (from ${APP_LAYOUT.tools}) and the views (${APP_LAYOUT.views}/<name>/), both unless one\n` +
  `  is named, into ${APP_LAYOUT.generated}/ or FOLDER: validators.generated.ts with validators/, and views/.`;

/** The command: generates what is asked, quietly when nothing changed; a failure is one line and status 1. */
export async function main(args: string[]): Promise<number> {
  let parsed;
  try {
    parsed = parseArgs({
      args,
      allowPositionals: true,
      options: { verbose: { type: 'boolean' }, out: { type: 'string', default: APP_LAYOUT.generated } },
    });
  } catch {
    console.error(usage);
    return 2;
  }
  const [part, ...extra] = parsed.positionals;
  if (extra.length > 0 || (part !== undefined && part !== 'validators' && part !== 'views')) {
    console.error(usage);
    return 2;
  }
  try {
    const out = parsed.values.out;
    if (part !== 'views') await writeValidators(APP_LAYOUT.tools, join(out, 'validators.generated.ts'));
    if (part !== 'validators') {
      const built = await generateViews(APP_LAYOUT.views, join(out, 'views'));
      if (parsed.values.verbose)
        for (const view of built)
          console.log(
            `view ${view.name}: ${Buffer.byteLength(view.html)} bytes (script ${view.scriptBytes}, style ${view.styleBytes})`,
          );
    }
    return 0;
  } catch (error) {
    console.error(`npm run generate: ${(error as Error).message}`);
    return 1;
  }
}
