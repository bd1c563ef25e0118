import type { CallToolResult } from '@mcp-lambda/server/protocol';

/** Small DOM helpers the example views share: build elements, read a result's text, show a status line. */

type Child = Node | string | false | null | undefined;
type Props = Record<string, string | number | boolean | ((event: Event) => void) | undefined>;

/** Creates an element: `on…` props become listeners, `class` the class name, the rest attributes. */
export function h<K extends keyof HTMLElementTagNameMap>(
  tag: K,
  props: Props = {},
  ...children: Child[]
): HTMLElementTagNameMap[K] {
  const element = document.createElement(tag);
  for (const [name, value] of Object.entries(props)) {
    if (value === undefined || value === false) continue;
    if (typeof value === 'function') element.addEventListener(name.slice(2).toLowerCase(), value);
    else if (name === 'class') element.className = String(value);
    else element.setAttribute(name, value === true ? '' : String(value));
  }
  element.append(
    ...(children.filter((c) => c !== false && c !== null && c !== undefined) as (Node | string)[]),
  );
  return element;
}

/** The SVG namespace's element, with attributes. */
export function svg<K extends keyof SVGElementTagNameMap>(
  tag: K,
  attributes: Record<string, string | number> = {},
  ...children: (Node | string)[]
): SVGElementTagNameMap[K] {
  const element = document.createElementNS('http://www.w3.org/2000/svg', tag);
  for (const [name, value] of Object.entries(attributes)) element.setAttribute(name, String(value));
  element.append(...children);
  return element;
}

/** The text blocks of a result, joined: what a failed call says. */
export const resultText = (result: CallToolResult): string =>
  (result.content ?? [])
    .map((block) => (block.type === 'text' ? block.text : ''))
    .filter(Boolean)
    .join('\n');

/** Sets a status line's text and kind (`error` shows in the danger colour). */
export function setStatus(element: HTMLElement, text: string, kind: 'info' | 'error' = 'info'): void {
  element.textContent = text;
  element.dataset.kind = kind;
}

/** A time in the person's own locale and time zone: how every view shows a time. */
export const localTime = (time: string | number): string => new Date(time).toLocaleString();

/** A server's text with its ISO 8601 UTC times (`2026-12-05T08:12:54.211Z`) shown as local times. */
export const localTimes = (text: string): string =>
  text.replace(/\d{4}-\d\d-\d\dT\d\d:\d\d(:\d\d(\.\d+)?)?Z/g, (iso) => localTime(iso));

/** "1,234". */
export const count = (n: number): string => n.toLocaleString('en-US');

/** "1.5 MB". */
export function formatBytes(bytes: number): string {
  if (bytes < 1024) return `${bytes} bytes`;
  const units = ['KB', 'MB', 'GB'];
  let value = bytes / 1024;
  let unit = 0;
  while (value >= 1024 && unit < units.length - 1) {
    value /= 1024;
    unit++;
  }
  return `${value.toFixed(value < 10 ? 1 : 0)} ${units[unit]}`;
}
