import { Annotations } from 'aws-cdk-lib';
import type { Construct } from 'constructs';
import { CallStateTable } from '../call-state-table.ts';
import type { BundledFunction } from '../bundled-function.ts';
import { SessionSecret } from '../session-secret.ts';
import type { McpEndpointProps } from './props.ts';
import type { EndpointSettings } from './settings.ts';

/** What asking the person adds to an endpoint; each part only when it applies. */
export interface EndpointAsking {
  /** The key sealing session ids and `requestState`, unless `mcpEnvironment` brings its own. */
  readonly sessions?: SessionSecret;
  /** The call state's table, with the streaming API. */
  readonly callState?: CallStateTable;
}

/** A key given in `mcpEnvironment` is written into the template as it is: say so, and what to do instead. */
function warnPlaintextKeys(scope: Construct, own: Readonly<Record<string, string>>): void {
  for (const name of ['MCP_SESSION_SECRET', 'MCP_REQUEST_STATE_SECRET'])
    if (own[name])
      Annotations.of(scope).addWarningV2(
        `mcp-lambda-template:plaintext-key-${name}`,
        `mcpEnvironment sets ${name} as plain text: the value is written into the CloudFormation template and ` +
          "shown in the functions' configuration. Leave it out: the stack then generates a Secrets Manager " +
          'secret (MCP_SESSION_SECRET_ARN) whose keys seal session ids and requestState alike, read by the MCP ' +
          'function alone.',
      );
}

/**
 * Asking the person (docs/asking.md): a session key on either API, so the MCP function knows what each
 * handshake-era client declared and any instance opens the `requestState` of a 2026-07-28 retry; the call state's
 * table only with the streaming API, the one that can ask mid-call, resume a cut stream and watch for a
 * cancellation. Each is readable by the MCP function alone,
 * which gets their settings in its environment.
 */
export function endpointAsking(
  scope: Construct,
  props: McpEndpointProps,
  settings: EndpointSettings,
  mcpFunction: BundledFunction,
): EndpointAsking {
  const own = props.mcpEnvironment ?? {};
  warnPlaintextKeys(scope, own);
  const added: Record<string, string> = {};
  let sessions: SessionSecret | undefined;
  let callState: CallStateTable | undefined;
  if (!own.MCP_SESSION_SECRET && !own.MCP_SESSION_SECRET_ARN) {
    sessions = new SessionSecret(scope, 'Sessions', { removalPolicy: props.removalPolicy });
    sessions.grantRead(mcpFunction);
    Object.assign(added, sessions.environment);
  }
  if (settings.streaming) {
    // The id an earlier release gave the table (as `AskRendezvous`): the same logical ids, so no table is replaced.
    callState = new CallStateTable(scope, 'Asking', {
      logGroup: mcpFunction.logGroup,
      metricsNamespace: settings.metricsNamespace,
      removalPolicy: props.removalPolicy,
      alarmActions: props.alarmActions,
    });
    callState.grantReadWrite(mcpFunction);
    Object.assign(added, callState.environment);
  }
  for (const [name, value] of Object.entries(added)) mcpFunction.addEnvironment(name, value);
  return { ...(sessions ? { sessions } : {}), ...(callState ? { callState } : {}) };
}
