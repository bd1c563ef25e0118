/** The part of dynalite (no published types) the tests use: a node:http server speaking the DynamoDB API. */
declare module 'dynalite' {
  import type { Server } from 'node:http';
  export default function dynalite(options?: {
    createTableMs?: number;
    deleteTableMs?: number;
    updateTableMs?: number;
    path?: string;
  }): Server;
}
