import { nodeCrypto } from '../crypto.ts';
import { isShortEcho } from '../protocol/client-text.ts';
import { InvalidParamsError, MissingCapabilityError } from '../protocol/errors.ts';
import { isJsonObject } from '../protocol/json.ts';
import {
  isLoggingLevel,
  type Implementation,
  type RequestId,
  type ServerCapabilities,
} from '../protocol/types.ts';
import { MetaKey, negotiateHandshakeVersion, SUPPORTED_PROTOCOL_VERSIONS } from '../protocol/versions.ts';
import { TASKS_EXTENSION } from '../tasks/types.ts';
import type { MethodTable } from './method.ts';

/** What the lifecycle methods tell clients about the server. */
export interface LifecycleOptions {
  info: Implementation;
  instructions?: string;
  capabilities: ServerCapabilities;
}

/**
 * A subscription's id: the request id, which the response repeats anyway; a request id too long to repeat twice
 * more is replaced by a short digest of it, so the answer never carries a client string three times over.
 */
function subscriptionIdOf(id: RequestId): RequestId {
  return isShortEcho(id)
    ? id
    : `sub-${nodeCrypto().createHash('sha256').update(String(id)).digest('base64url').slice(0, 22)}`;
}

/**
 * Lifecycle and session-free utilities: `initialize` and `ping` (handshake era), `server/discover` and
 * `subscriptions/listen` (2026-07-28), `logging/setLevel` when logging is advertised. The codec decides which
 * revision has which.
 */
export function lifecycleMethods(options: LifecycleOptions): MethodTable {
  const { info, capabilities } = options;
  const instructions = options.instructions ? { instructions: options.instructions } : {};
  return {
    initialize: {
      handler: async (params) => ({
        protocolVersion: negotiateHandshakeVersion(params.protocolVersion),
        capabilities,
        serverInfo: info,
        ...instructions,
      }),
    },
    ping: { handler: async () => ({}) },
    'server/discover': {
      handler: async () => ({
        supportedVersions: [...SUPPORTED_PROTOCOL_VERSIONS],
        capabilities,
        ...instructions,
      }),
    },
    'subscriptions/listen': {
      stream: true,
      handler: async (params, ctx) => {
        if (!isJsonObject(params.notifications))
          throw new InvalidParamsError('notifications must be a subscription filter object');
        // Task status notifications need the tasks extension on the request (SEP-2663); we send none either way:
        // clients poll tasks/get.
        if (params.notifications.taskIds !== undefined && !ctx.codec.acceptsTasks())
          throw new MissingCapabilityError({ extensions: { [TASKS_EXTENSION]: {} } });
        // Nothing here can change while a Lambda runs, so we honour no notification type: acknowledge an empty
        // filter, then end the subscription at once with its result. The acknowledgement is the first message
        // carrying the subscription's id (schema: SubscriptionsAcknowledgedNotification); the request id serves.
        const subscriptionId = subscriptionIdOf(ctx.id);
        ctx.emit({
          jsonrpc: '2.0',
          method: 'notifications/subscriptions/acknowledged',
          params: { notifications: {}, _meta: { [MetaKey.SubscriptionId]: subscriptionId } },
        });
        return { _meta: { [MetaKey.SubscriptionId]: subscriptionId } };
      },
    },
    ...(capabilities.logging
      ? {
          'logging/setLevel': {
            handler: async (params) => {
              if (!isLoggingLevel(params.level))
                throw new InvalidParamsError('level must be a logging level');
              return {};
            },
          },
        }
      : {}),
  };
}
