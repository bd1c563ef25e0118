import type { JSONObject } from '../protocol/types.ts';
import type { ToolVisibility, ViewDefinition } from '../contracts/view.ts';

/** What a tool says about views: the view its results are shown in, and who may call it. */
export interface ToolViewOptions {
  view?: ViewDefinition;
  visibility?: readonly ToolVisibility[];
  _meta?: JSONObject;
}

/** The visibilities a tool may declare, as JSON (SEP-1865: `model`, `app`, or both). */
const VISIBILITIES = ['["model","app"]', '["app","model"]', '["app"]', '["model"]'];

/**
 * The `_meta` a tool is listed with: its own, plus `ui` (SEP-1865 "Resource Discovery") naming its view and who may
 * call it. The deprecated flat key `ui/resourceUri` is written too, as the official server helpers do, for hosts
 * that still read only that one. `visibility` is listed only when set (the spec's default is both).
 */
export function toolMetaWithView(tool: string, options: ToolViewOptions): JSONObject | undefined {
  const { view, visibility, _meta } = options;
  if (view === undefined && visibility === undefined) return _meta;
  if (visibility !== undefined && !VISIBILITIES.includes(JSON.stringify(visibility)))
    throw new Error(
      `Tool "${tool}" declares visibility ${JSON.stringify(visibility)}; use ["model", "app"] or ["app"]`,
    );
  // The view's URI itself is checked with the server's views (`resources.ts`).
  return {
    ..._meta,
    ui: {
      ...(_meta?.ui as JSONObject | undefined),
      ...(view ? { resourceUri: view.uri } : {}),
      ...(visibility ? { visibility: [...visibility] } : {}),
    },
    ...(view ? { 'ui/resourceUri': view.uri } : {}),
  };
}
