/**
 * `mcp-lambda-dev <command> [arguments]`: the development commands an app's npm scripts call (`npm start`,
 * `npm run view`, `npm run local-user`, `npm run signout`, `npm run generate`, `npm run load`), run in the app's
 * folder. A command's module is loaded only when it is the one asked for; `--help` after a command prints its usage.
 */

/** What each command module exports: its usage, and a run that answers its exit status (none while it serves). */
interface Command {
  usage: string;
  main(args: string[]): Promise<number | undefined>;
}

const COMMANDS: Record<string, () => Promise<Command>> = {
  start: () => import('./start.ts'),
  view: () => import('./view.ts'),
  'local-user': () => import('./local-user.ts'),
  signout: () => import('./signout.ts'),
  generate: () => import('./generate.ts'),
  load: () => import('./load.ts'),
};

const isHelp = (arg: string) => arg === '--help' || arg === '-h';

/** The usage of every command, for `mcp-lambda-dev --help` and a command it does not know. */
async function overview(): Promise<string> {
  const usages = await Promise.all(Object.values(COMMANDS).map(async (load) => (await load()).usage));
  return ['usage: mcp-lambda-dev start|view|local-user|signout|generate|load [arguments]', ...usages].join(
    '\n\n',
  );
}

/** Runs the command `argv` names; sets the exit status when the command has one. */
export async function main(argv: string[]): Promise<void> {
  const [name = '', ...args] = argv;
  const load = Object.hasOwn(COMMANDS, name) ? COMMANDS[name] : undefined;
  if (!load) {
    const help = isHelp(name) || name === 'help';
    (help ? console.log : console.error)(await overview());
    process.exitCode = help ? 0 : 2;
    return;
  }
  const command = await load();
  if (args.some(isHelp)) {
    console.log(command.usage);
    return;
  }
  const code = await command.main(args);
  if (code !== undefined) process.exitCode = code;
}
