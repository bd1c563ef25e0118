import type { HttpRequest, HttpResponse } from '@mcp-lambda/server/lambda';
import { nestsDeeperThan } from '@mcp-lambda/server/auth';
import { MAX_JSON_DEPTH } from '@mcp-lambda/server/limits';
import { clientLabel, type BridgeDeps, type RequestNote } from './endpoints.ts';
import { jsonResponse } from './http.ts';
import { register, validateRegistration } from './registration.ts';

/** POST /oauth/register (RFC 7591 §3): a JSON body in, 201 with the registration or 400 with its error out. */
export function registrationEndpoint(req: HttpRequest, deps: BridgeDeps, note: RequestNote): HttpResponse {
  const type = (req.headers['content-type'] ?? '').split(';')[0]!.trim().toLowerCase();
  let body: unknown;
  try {
    body = type === 'application/json' ? JSON.parse(req.body ?? '') : undefined;
  } catch {
    body = undefined;
  }
  if (body === undefined) {
    note.error = 'invalid_client_metadata';
    return jsonResponse(400, {
      error: 'invalid_client_metadata',
      error_description: 'the body must be a JSON object (application/json)',
    });
  }
  // Nothing below walks deep, but the limit every JSON body keeps is cheap to keep here too (RFC 7591 §3.2.2).
  if (nestsDeeperThan(body, MAX_JSON_DEPTH)) {
    note.error = 'invalid_client_metadata';
    return jsonResponse(400, {
      error: 'invalid_client_metadata',
      error_description: `the body nests arrays and objects more than ${MAX_JSON_DEPTH} levels deep`,
    });
  }
  const checked = validateRegistration(body);
  if (!checked.ok) {
    note.error = checked.error.error;
    return jsonResponse(400, checked.error);
  }
  const response = register(checked.registration, deps.sealer, deps.now());
  note.client = clientLabel(response.client_id);
  return jsonResponse(201, response);
}
