#!/usr/bin/env node
// `npm create mcp-lambda@latest <folder>` runs this. The package imports itself by name, so this repository (which
// resolves its packages to their sources) runs the source, and everyone else the built module.
const { main } = await import('create-mcp-lambda');
process.exitCode = await main(process.argv.slice(2));
