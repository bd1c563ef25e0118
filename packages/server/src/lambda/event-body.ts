/** The request body of an API Gateway proxy event (payload 1.0 or 2.0) as text: base64 decoded when so marked. */
export const eventBody = (event: { body?: string | null; isBase64Encoded?: boolean }): string | undefined =>
  event.body === undefined || event.body === null
    ? undefined
    : event.isBase64Encoded
      ? Buffer.from(event.body, 'base64').toString('utf8')
      : event.body;
