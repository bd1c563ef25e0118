import { createServer } from 'node:net';

/** A port of 127.0.0.1 free a moment ago (listened on, then closed), for a setting or a server that pins one. */
export async function freePort(): Promise<number> {
  const probe = createServer();
  await new Promise<void>((ready) => probe.listen(0, '127.0.0.1', () => ready()));
  const { port } = probe.address() as { port: number };
  await new Promise<void>((closed) => probe.close(() => closed()));
  return port;
}
