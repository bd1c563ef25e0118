/** The public API of the template: define tools, build a server, read configuration. */
export {
  defineTool,
  ToolError,
  type ToolContext,
  type ToolDefinition,
  type StoreRequest,
} from './tools/define.ts';
export { definePrompt, type PromptContext, type PromptDefinition } from './prompts/define.ts';
export {
  inputRequired,
  InputRequired,
  type InputRequest,
  type InputResponses,
} from './input/input-required.ts';
export { createMcpServer, type McpServer, type McpServerOptions } from './server.ts';
export { loadConfig, type Config, type AuthConfig } from './config.ts';
export { createOAuthAuthenticator, type OAuthOptions } from './auth/oauth.ts';
export type { Authenticator, AuthRejection, Authentication } from './auth/authenticator.ts';
export type { Principal } from './auth/principal.ts';
export { staticResources, type StaticResource, type TemplatedResource } from './resources/static.ts';
export type { ResourceProvider, ResourceContext, ResourceReadResult } from './resources/provider.ts';
export type * from './protocol/types.ts';
