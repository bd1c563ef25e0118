#!/usr/bin/env node
// The development commands of an app: `npm start`, `npm run view`, `npm run local-user`, `npm run signout` call
// `mcp-lambda-dev <command>`. The app's function entries are TypeScript, as is this package's source: tsx is
// registered before anything else loads, so every module imported after it may be TypeScript. The commands are this
// package's built module, or its source inside this repository (where src/ sits beside bin/; it is not published).
import { existsSync } from 'node:fs';
import { register } from 'tsx/esm/api';

register();
const source = new URL('../src/commands/cli.ts', import.meta.url);
const { main } = await import(existsSync(source) ? source.href : '../dist/commands/cli.js');
await main(process.argv.slice(2));
