/**
 * `createOAuthAuthenticator`, loaded when asked for: a function that runs without authorization never loads the
 * token verification code (jose, key sets, discovery), and one that does loads it during init, not on a request.
 */
export async function loadOAuthAuthenticator(): Promise<
  typeof import('./oauth.ts').createOAuthAuthenticator
> {
  return (await import('./oauth.ts')).createOAuthAuthenticator;
}
