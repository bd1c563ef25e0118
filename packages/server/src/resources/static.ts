import type { Resource, ResourceContents, ResourceTemplate } from '../protocol/types.ts';
import type { ResourceContext, ResourceProvider, ResourceReadResult } from './provider.ts';

/** A fixed resource: its listing plus how to produce its contents. */
export interface StaticResource extends Resource {
  /** Text, or bytes (served as base64 `blob`). */
  read: (ctx: ResourceContext) => string | Uint8Array | Promise<string | Uint8Array>;
}

/** A templated resource (RFC 6570 level 1: `{name}` segments only). */
export interface TemplatedResource extends ResourceTemplate {
  read: (
    vars: Record<string, string>,
    uri: string,
    ctx: ResourceContext,
  ) => string | Uint8Array | Promise<string | Uint8Array>;
  /** Suggestions for a template variable's value (`completion/complete`). */
  complete?: (variable: string, value: string) => string[] | Promise<string[]>;
}

function toContents(uri: string, mimeType: string | undefined, body: string | Uint8Array): ResourceContents {
  const base = { uri, ...(mimeType ? { mimeType } : {}) };
  return typeof body === 'string'
    ? { ...base, text: body }
    : { ...base, blob: Buffer.from(body).toString('base64') };
}

function templateMatcher(template: string): (uri: string) => Record<string, string> | undefined {
  const names: string[] = [];
  const pattern = template
    .split(/(\{[A-Za-z0-9_]+\})/)
    .map((part) => {
      const m = /^\{([A-Za-z0-9_]+)\}$/.exec(part);
      if (!m) return part.replace(/[.*+?^${}()|[\]\\]/g, '\\$&');
      names.push(m[1]!);
      return '([^/?#]+)';
    })
    .join('');
  const re = new RegExp(`^${pattern}$`);
  return (uri) => {
    const m = re.exec(uri);
    if (!m) return undefined;
    const vars: Record<string, string> = {};
    for (const [i, name] of names.entries()) {
      let value: string;
      try {
        value = decodeURIComponent(m[i + 1]!);
      } catch {
        return undefined; // a malformed escape names no resource
      }
      // A variable is one path segment: an encoded slash or a dot segment must not smuggle a path into it.
      if (value.includes('/') || value === '.' || value === '..') return undefined;
      vars[name] = value;
    }
    return vars;
  };
}

/** A provider for fixed resources and simple URI templates, defined in code. */
export function staticResources(
  resources: readonly StaticResource[],
  templates: readonly TemplatedResource[] = [],
): ResourceProvider {
  const byUri = new Map(resources.map((r) => [r.uri, r]));
  const matchers = templates.map((t) => ({ template: t, match: templateMatcher(t.uriTemplate) }));
  const listing = resources.map(({ read: _read, ...listed }) => listed);
  const templateListing = templates.map(({ read: _read, complete: _complete, ...listed }) => listed);
  return {
    owns: (uri) => byUri.has(uri) || matchers.some((m) => m.match(uri) !== undefined),
    async read(uri, ctx): Promise<ResourceReadResult | undefined> {
      const fixed = byUri.get(uri);
      if (fixed) return { contents: [toContents(uri, fixed.mimeType, await fixed.read(ctx))] };
      for (const { template, match } of matchers) {
        const vars = match(uri);
        if (vars)
          return { contents: [toContents(uri, template.mimeType, await template.read(vars, uri, ctx))] };
      }
      return undefined;
    },
    list: () => listing,
    templates: () => templateListing,
    complete: async (uriTemplate, variable, value) =>
      (await templates.find((t) => t.uriTemplate === uriTemplate)?.complete?.(variable, value)) ?? [],
  };
}
