/**
 * `@mcp-lambda/dev/artillery`: the processor of the Artillery test `npm run load -- --emit artillery DIR` writes
 * (the processor the command writes is this module, bundled with the step code it runs). A script names one of its
 * functions in a `function` step; each reads the plan file beside the script (plan.ts).
 */
// ## The Artillery processor of a load scenario (experimental)
export { type ArtilleryContext, mcpFlowRun, mcpConnection } from './processor.ts';
export { type ArtilleryEvents } from './metrics.ts';
