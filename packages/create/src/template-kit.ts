/**
 * `create-mcp-lambda/template`: how the template is made from the repository's root, for the repository's test
 * that keeps the two from drifting apart: which root files make an app, which serve the repository only, and the
 * transforms that write the few an app has differently.
 */
// ## The app's files (experimental)
export {
  APP_DEPENDENCIES,
  APP_DEV_DEPENDENCIES,
  APP_ONLY,
  APP_PATHS,
  APP_SCRIPTS,
  KEPT_TOOL,
  PACKED_NAMES,
  REPOSITORY_ONLY,
  TRANSFORMED,
} from './app-files.ts';
// ## Making the template (experimental)
export { makeTemplate, TEMPLATE_DIR } from './template.ts';
// ## The transforms (experimental)
export {
  appCdkJson,
  appInfraReadme,
  DOCS_NOTE,
  appManifest,
  appTsconfig,
  appViewsTsconfig,
  formatJson,
  keptToolsIndex,
  keptValidators,
  toolNames,
} from './transforms.ts';
// ## Listing an app's files (experimental)
export { filesBelow, packageName } from './scaffold.ts';
