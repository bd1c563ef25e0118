import { describe, expect, it } from 'vitest';
import { measureModelBytes } from '../bench/model-bytes.ts';
import { FRAMEWORKS, modelViews } from '../bench/model-view.ts';
import { FRAMEWORK_PAGE_SPREAD, READ_OUTPUT_DEFINITION_LIMIT_BYTES } from '../bench/targets-features.ts';

// What the model pays for (issue 23): the bench's part 9, checked here in bytes (never in time).

describe('each framework’s view of a tool result, as its adapter builds it', () => {
  const page = 'id,total\n1,2\n'.repeat(100);
  const summary = 'Bytes 0–1,299 of mcp-output://outputs/x (text/csv, 2.0 KiB). Next page: …';

  it('shows a page once when it is two text blocks, even with the page in the structured result too', () => {
    const result = {
      content: [
        { type: 'text', text: summary },
        { type: 'text', text: `MARK${page}` },
      ],
      structuredContent: { summary, uri: 'mcp-output://outputs/x', mode: 'bytes', text: `MARK${page}` },
    };
    for (const view of Object.values(FRAMEWORKS)) expect(view(result).split('MARK')).toHaveLength(2);
  });

  it('showed LangChain’s model the page twice when structuredContent repeated it in one text block', () => {
    const text = `${summary}\n\n${page}`;
    const views = modelViews({
      content: [{ type: 'text', text }],
      structuredContent: { summary, text: page },
    });
    expect(views['AI SDK']).toBe(Buffer.byteLength(text));
    expect(views.LangChain).toBeGreaterThan(2 * page.length);
  });

  it('passes resource links on as each adapter does: JSON, a file block, or nothing', () => {
    const link = { type: 'resource_link', uri: 'mcp-output://outputs/x', name: 'x', mimeType: 'text/csv' };
    const result = { content: [{ type: 'text', text: 'stored' }, link] };
    expect(FRAMEWORKS['AI SDK'](result)).toBe(`stored${JSON.stringify(link)}`);
    expect(JSON.parse(FRAMEWORKS.LangChain(result))[1]).toEqual({
      type: 'file',
      source_type: 'url',
      url: link.uri,
      mime_type: 'text/csv',
    });
    expect(FRAMEWORKS.Mastra(result)).toBe('stored');
    expect(FRAMEWORKS['OpenAI Agents'](result)).toBe(JSON.stringify(result.content));
  });
});

describe('the bytes a model is handed by this template', () => {
  it('keeps read_output’s definition small and a page the same size through every framework', async () => {
    const measured = await measureModelBytes();
    expect(measured.toolsList.readOutputBytes).toBeLessThanOrEqual(READ_OUTPUT_DEFINITION_LIMIT_BYTES);
    expect(measured.declarations.readOutputBytes).toBeLessThan(measured.toolsList.readOutputBytes);
    expect(measured.page.LangChain / measured.page['AI SDK'] - 1).toBeLessThanOrEqual(FRAMEWORK_PAGE_SPREAD);
    // The envelope (summary and wrapping) stays a small share of a default page.
    for (const bytes of Object.values(measured.page))
      expect(bytes - measured.pageTextBytes).toBeLessThan(0.1 * measured.pageTextBytes);
  });
});
