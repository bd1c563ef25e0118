import { Defaults } from '@mcp-lambda/server/limits';

/** A stage's throttling, defaults applied and checked: a positive rate and a positive integer burst. */
export function checkedThrottle(
  owner: string,
  props: { readonly throttleRateLimit?: number; readonly throttleBurstLimit?: number },
): { rateLimit: number; burstLimit: number } {
  const rateLimit = props.throttleRateLimit ?? Defaults.throttleRateLimit;
  const burstLimit = props.throttleBurstLimit ?? Defaults.throttleBurstLimit;
  if (!(Number.isFinite(rateLimit) && rateLimit > 0))
    throw new Error(`${owner}: throttleRateLimit must be a positive number of requests per second`);
  if (!(Number.isInteger(burstLimit) && burstLimit > 0))
    throw new Error(`${owner}: throttleBurstLimit must be a positive integer`);
  return { rateLimit, burstLimit };
}

/** The origins browsers may call from, checked: API Gateway CORS takes exact origins or `*`. */
export function checkedOrigins(owner: string, origins: readonly string[] | undefined): readonly string[] {
  const badOrigin = (origins ?? []).find((o) => o !== '*' && !/^https?:\/\/[^/*]+$/.test(o));
  if (badOrigin !== undefined) {
    throw new Error(
      `${owner}: allowed origin ${JSON.stringify(badOrigin)} is not an exact origin; API Gateway CORS needs ` +
        '"scheme://host[:port]" or "*"',
    );
  }
  return origins ?? [];
}
