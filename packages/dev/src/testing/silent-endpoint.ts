import { createServer, type Server, type Socket } from 'node:net';

/** A loopback TCP endpoint that accepts connections and never answers. */
export interface SilentEndpoint {
  url: string;
  /** Connections accepted so far: a call reached the endpoint. */
  connections(): number;
  close(): Promise<void>;
}

/**
 * A stand-in for a backend (S3, DynamoDB, Lambda, KMS, Secrets Manager) that accepts every connection, reads
 * everything and never answers: only a caller's own deadline ends a call to it.
 */
export async function silentEndpoint(): Promise<SilentEndpoint> {
  const sockets = new Set<Socket>();
  let accepted = 0;
  const server: Server = createServer((socket) => {
    accepted += 1;
    sockets.add(socket);
    socket.on('data', () => undefined);
    socket.on('close', () => sockets.delete(socket));
  });
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', () => resolve()));
  const { port } = server.address() as { port: number };
  return {
    url: `http://127.0.0.1:${port}`,
    connections: () => accepted,
    close: async () => {
      for (const socket of sockets) socket.destroy();
      await new Promise<void>((resolve) => server.close(() => resolve()));
    },
  };
}
