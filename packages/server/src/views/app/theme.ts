import type { HostContext } from './protocol.ts';

/**
 * Host theming (SEP-1865 "Theming"): the host's theme becomes the document's `color-scheme` (so `light-dark()`
 * picks the right side) and `data-theme`, and its CSS variables override the view's defaults on the root element.
 * A view's stylesheet sets a default for every variable it uses, so a host that sends none still looks right.
 */

/** A CSS custom property name as the spec names them: `--` and lower-case words. */
const VARIABLE = /^--[a-z0-9-]{1,64}$/;
/** Longest variable value taken; a font stack or a `light-dark()` pair is far shorter. */
const MAX_VALUE = 512;
const FONTS_ID = 'mcp-host-fonts';

/** Applies a host context's theme, style variables and font rules to the document. */
export function applyHostContext(context: HostContext): void {
  const root = document.documentElement;
  if (context.theme === 'light' || context.theme === 'dark') {
    root.dataset.theme = context.theme;
    root.style.colorScheme = context.theme;
  }
  for (const [name, value] of Object.entries(context.styles?.variables ?? {})) {
    if (!VARIABLE.test(name)) continue;
    if (typeof value === 'string' && value.length <= MAX_VALUE) root.style.setProperty(name, value);
    else if (value === undefined) root.style.removeProperty(name);
  }
  const fonts = context.styles?.css?.fonts;
  if (typeof fonts === 'string') {
    // Font rules may name the host's font origin; the view's CSP decides whether they load.
    let style = document.getElementById(FONTS_ID);
    if (!style) {
      style = document.createElement('style');
      style.id = FONTS_ID;
      document.head.append(style);
    }
    style.textContent = fonts;
  }
}
