import { flagField, textField, type EventFields } from './event-fields.ts';

/** The request body of an API Gateway proxy event (payload 1.0 or 2.0) as text: base64 decoded when so marked. */
export function eventBody(event: EventFields): string | undefined {
  const body = textField(event.body, 'body');
  if (body === undefined) return undefined;
  return flagField(event.isBase64Encoded, 'isBase64Encoded')
    ? Buffer.from(body, 'base64').toString('utf8')
    : body;
}
