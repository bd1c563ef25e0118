import type { CacheHint } from '../protocol/types.ts';
import type { ResourceProvider } from '../resources/provider.ts';
import type { ViewDefinition } from '../contracts/view.ts';

/**
 * The server's views as resources: the MCP function itself answers `resources/read` of a `ui://` URI (never the
 * companion: a view is code of the deployment, not a stored output). The serving code (`serve.ts`) and each
 * document load on first use.
 */
export function viewResources(views: readonly ViewDefinition[], cache: CacheHint): ResourceProvider {
  const byUri = new Map(views.map((v) => [v.uri, v]));
  let server: Promise<ReturnType<typeof import('./serve.ts').viewServer>> | undefined;
  const serve = () => (server ??= import('./serve.ts').then((m) => m.viewServer(views, cache)));
  return {
    owns: (uri) => byUri.has(uri),
    async read(uri) {
      const view = byUri.get(uri);
      return view && (await serve()).read(view);
    },
    list: async () => (await serve()).list(),
  };
}

/** `ui://` and a host-neutral rest: no spaces, quotes or angle brackets (it lands in JSON and in host logs). */
const VIEW_URI = /^ui:\/\/[^\s"'<>\\]{1,500}$/;

/**
 * Refuses a view whose uri, name or document loader is missing: a mistake stops start-up, never a request. What
 * the listing does not need (origins, permissions) is checked when the views are first served (`serve.ts`), so it
 * costs no cold start.
 */
function checkView(view: ViewDefinition): void {
  const problem = !VIEW_URI.test(view?.uri)
    ? 'the uri must be ui://… (no spaces or quotes)'
    : !view.name || typeof view.name !== 'string'
      ? 'it has no name'
      : typeof view.html !== 'function'
        ? 'html must be a function that loads the document'
        : undefined;
  if (problem) throw new Error(`View ${JSON.stringify(view?.uri)}: ${problem}`);
}

/**
 * Every view of a server: those given on their own and those its tools link, each once. Two different declarations
 * of one URI are a mistake (which document would the host get?), refused at start-up like a duplicate tool name.
 */
export function collectViews(
  views: readonly ViewDefinition[],
  linked: readonly (ViewDefinition | undefined)[],
): ViewDefinition[] {
  const byUri = new Map<string, ViewDefinition>();
  for (const view of [...views, ...linked]) {
    if (view === undefined) continue;
    checkView(view);
    const known = byUri.get(view.uri);
    if (known !== undefined && known !== view) throw new Error(`View "${view.uri}" is declared twice`);
    byUri.set(view.uri, view);
  }
  return [...byUri.values()];
}
