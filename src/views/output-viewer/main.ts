import type { CallToolResult } from '@mcp-lambda/server/protocol';
import { connectView, type ViewConnection } from '@mcp-lambda/server/view';
import { formatBytes, h, localTime, resultText, setStatus } from '../common/dom.ts';
import { csvPanel, jsonPanel, textPanel, type PanelContext } from './panels.ts';
import { linkedOutput, type Output } from './read.ts';
import { searchBox } from './search.ts';
import './style.css';

/**
 * The output viewer: given a tool result that links a stored output, it shows the output a page at a time through
 * read_output (CSV as a table, text by lines, JSON by pointer, all searchable), previews images and audio, and
 * describes other binary outputs. The model keeps the short notice; the person gets the data.
 */

/** Largest image or audio previewed: it is read whole, as one base64 blob. */
const MAX_PREVIEW_BYTES = 2 * 1024 * 1024;

const title = h('h1', {}, 'Stored output');
const facts = h('p', { class: 'facts' });
const status = h('p', { class: 'status', role: 'status', 'aria-live': 'polite' }, 'Waiting for the result…');
const nav = h('div', { class: 'nav' });
const body = h('div', { class: 'body' });
document.body.append(h('header', {}, title, facts), nav, status, body);

let host: ViewConnection | undefined;
/** A result that arrived before the connection was in hand (the host may be that quick). */
let early: CallToolResult | undefined;

/** Images and audio up to the preview size, read whole through the host; anything bigger is described. */
async function preview(view: ViewConnection, output: Output, type: string): Promise<void> {
  if (output.size > MAX_PREVIEW_BYTES) {
    setStatus(
      status,
      `Too large to preview here (${formatBytes(output.size)}); the model can read it with resources/read.`,
    );
    return;
  }
  setStatus(status, 'Reading…');
  try {
    const read = await view.readResource(output.uri);
    const c = read.contents[0];
    // An SVG stored as text is shown as an image as well, never put into this document as markup: in an <img> its
    // scripts do not run and it loads nothing. data: is the image source the default CSP allows (blob: is not).
    const src =
      c && 'blob' in c
        ? `data:${type};base64,${c.blob}`
        : c && 'text' in c && type === 'image/svg+xml'
          ? `data:${type},${encodeURIComponent(c.text)}`
          : undefined;
    if (!src) throw new Error('the server sent no bytes');
    body.replaceChildren(
      type.startsWith('image/')
        ? h('img', { src, alt: output.name, class: 'preview' })
        : h('audio', { src, controls: true }),
    );
    setStatus(status, '');
  } catch (error) {
    setStatus(status, `The output could not be read: ${(error as Error).message}`, 'error');
  }
}

/** Shows a result: its stored output, the text it returned whole, or what went wrong. */
async function show(result: CallToolResult): Promise<void> {
  if (!host) return void (early = result);
  if (result.isError)
    return setStatus(status, resultText(result) || 'The tool failed without saying why.', 'error');
  const output = linkedOutput(result);
  if (!output) {
    title.textContent = 'Output';
    body.replaceChildren(h('pre', { class: 'lines' }, resultText(result)));
    return setStatus(status, 'The output came back whole; nothing was stored.');
  }
  title.textContent = output.name;
  const until = output.expiresAt && localTime(output.expiresAt);
  facts.textContent = [output.mimeType, formatBytes(output.size), until && `kept until ${until}`]
    .filter(Boolean)
    .join(' · ');
  if (until && Date.parse(output.expiresAt!) < Date.now())
    return setStatus(
      status,
      `This output expired on ${until} and can no longer be read. Run the tool again for a fresh one.`,
      'error',
    );
  const type = output.mimeType.split(';')[0]!.trim().toLowerCase();
  if (type.startsWith('image/') || type.startsWith('audio/')) return preview(host, output, type);
  const ctx: PanelContext = { host, output, body, nav, status };
  const textual = type.startsWith('text/') || type.endsWith('json') || type.endsWith('xml');
  if (!textual)
    return setStatus(
      status,
      `A binary output (${type}); it has no pages to show. The model can read it with resources/read.`,
    );
  const panel = type === 'text/csv' ? csvPanel(ctx) : type.endsWith('json') ? jsonPanel(ctx) : textPanel(ctx);
  nav.before(searchBox(ctx, panel));
  await panel.start();
}

connectView({
  name: 'output-viewer',
  version: '1.0.0',
  onToolResult: (result) => void show(result),
  onToolCancelled: (reason) =>
    setStatus(status, `The call was cancelled${reason ? `: ${reason}` : ''}.`, 'error'),
})
  .then((connection) => {
    host = connection;
    if (early) void show(early);
  })
  .catch((error: Error) => setStatus(status, `The host did not connect: ${error.message}`, 'error'));
