/**
 * The one way this library loads code on first use. A bundle keeps a module out of a function's start-up graph only
 * when nothing there imports it statically, so what only some requests need (the asking extension, the tasks
 * extension, streamed answers, the offloader, the readers of stored outputs, the S3 client) is reached through these
 * two helpers and an `import()`; docs/architecture.md lists what loads this way, and the bundle test holds the
 * start-up graph to it.
 */

/** `make`, run once, on the first call; every later call gets the same promise (a failure too: it is not retried). */
export function once<T>(make: () => Promise<T>): () => Promise<T> {
  let made: Promise<T> | undefined;
  return () => (made ??= make());
}

/** The names of the members of `T` that are methods returning a promise (optional ones included). */
type AsyncMethodsOf<T> = {
  [K in keyof T]-?: NonNullable<T[K]> extends (...args: never[]) => Promise<unknown> ? K : never;
}[keyof T];

/** The names of the optional members of `T`. */
type OptionalOf<T> = { [K in keyof T]-?: Record<never, never> extends Pick<T, K> ? K : never }[keyof T];

/**
 * The methods to forward, each named once: every required one (leaving one out, or naming one `T` does not have,
 * fails the type check); an optional one only where the real object has it.
 */
type Forwarded<T, Fields> = {
  readonly [K in Exclude<AsyncMethodsOf<T>, keyof Fields | OptionalOf<T>>]: true;
} & { readonly [K in Exclude<AsyncMethodsOf<T> & OptionalOf<T>, keyof Fields>]?: true };

/** The required members of `T` that are neither forwarded methods nor given fields: there must be none. */
type Unanswered<T, Fields> = Exclude<keyof T, AsyncMethodsOf<T> | keyof Fields | OptionalOf<T>>;

/**
 * A stand-in for an object made on the first call of any of its methods (each forwarded, arguments and result
 * untouched), with `fields` (properties known without loading anything, such as a cheap synchronous check) as they
 * are. Every other member of `T` must be a method returning a promise, named in `methods`.
 */
export function deferred<T extends object, Fields extends Partial<T> = Record<never, never>>(
  make: () => Promise<T>,
  methods: Forwarded<T, Fields> &
    ([Unanswered<T, Fields>] extends [never] ? unknown : { 'give in fields': Unanswered<T, Fields> }),
  fields?: Fields,
): T {
  const real = once(make);
  const stand: Record<PropertyKey, unknown> = { ...fields };
  for (const name of Object.keys(methods))
    stand[name] = async (...args: unknown[]) => {
      const target = (await real()) as Record<PropertyKey, unknown>;
      return (target[name] as (...a: unknown[]) => unknown).apply(target, args);
    };
  return stand as T;
}
