#!/usr/bin/env node
// The development commands of an app: `npm start`, `npm run view`, `npm run local-user`, `npm run signout` call
// `mcp-lambda-dev <command>`. The app's function entries are TypeScript, as is this package's source: tsx is
// registered before anything else loads, so every module imported after it may be TypeScript.
import { register } from 'tsx/esm/api';

register();
const { main } = await import('../src/commands/cli.ts');
await main(process.argv.slice(2));
