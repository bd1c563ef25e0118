/**
 * `@mcp-lambda/dev/view-host`: the local host of `npm run view`, started from code (the template's browser tests and
 * benchmarks show its views through it). A face of its own: it bundles its page with esbuild when it starts.
 */
// ## The local view host (experimental)
export { startViewHost, type ViewHost, type ViewHostOptions } from './server.ts';
