/**
 * Told about each AWS SDK client when it is made, returning the client to use: tracing wraps the client's calls
 * (an X-Ray subsegment per request, the trace header passed on to the service). The identity when absent.
 */
export type InstrumentClient = <Client extends object>(client: Client) => Client;

/** The client as it is, or as `instrument` returns it. */
export const instrumented = <Client extends object>(
  client: Client,
  instrument: InstrumentClient | undefined,
): Client => (instrument ? instrument(client) : client);
