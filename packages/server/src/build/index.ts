/**
 * `@mcp-lambda/server/build`: the build steps `npm run generate` runs on the template (the precompiled tool
 * validators, one self-contained document per view), for checks that what is committed is what they make today. Build
 * time only: no function's bundle imports it. Audience: build scripts and their tests. Experimental.
 */
// ## Build steps (experimental)
export { APP_LAYOUT } from './app-layout.ts';
export { generateValidatorModules, writeValidators, type GeneratedValidators } from './validators.ts';
export { schemaHash } from '../tools/validation.ts';
export { conditionsIn, esbuildConditions, resolvesSources, SOURCE_CONDITION } from './conditions.ts';
export { buildView, generateViews, viewModule, viewSources, type BuiltView } from './views.ts';
