import { generateReport } from '../../src/tools/generate-report.ts';
import { collectStreamed, toolContext } from '../bench/baselines/tools.ts';

/** The exact CSV `generate_report` produces for these arguments, collected from its stream. */
export async function reportText(args: { rows?: number; seed?: number }): Promise<string> {
  const value = await generateReport.handler(args, toolContext(new AbortController().signal));
  return (await collectStreamed(value)) as string;
}
