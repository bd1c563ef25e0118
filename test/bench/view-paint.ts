/**
 * The browser step of the views part: in headless Chromium, the time from the tool result reaching the view (the
 * `ui/notifications/tool-result` message, seen in the view's own frame) to the view's first painted page (its first
 * table row, bar or enabled Approve button in the DOM, then the next frame drawn), both on the view's own clock.
 */
import { launchChromium } from '../support/chromium.ts';

export interface ViewPaint {
  name: string;
  runs: number;
  p50Ms: number;
  maxMs: number;
}

/** Runs in every frame before its scripts; only a view's frame (served under /frames/) records anything. */
const PROBE = `(() => {
  if (!location.pathname.startsWith('/frames/')) return;
  const ready = ['tbody tr', 'rect.bar', 'button.approve:enabled'];
  let resultAt;
  window.addEventListener('message', (event) => {
    if (resultAt !== undefined || event.data?.method !== 'ui/notifications/tool-result') return;
    resultAt = performance.now();
    const observer = new MutationObserver(() => check());
    const check = () => {
      if (!ready.some((s) => document.querySelector(s))) return;
      observer.disconnect();
      requestAnimationFrame(() => setTimeout(() => { window.__viewPaintMs = performance.now() - resultAt; }, 0));
    };
    observer.observe(document.documentElement, { subtree: true, childList: true, attributes: true });
    check();
  });
})();`;

async function storedReport(mcpUrl: string, rows: number): Promise<string> {
  const res = await fetch(mcpUrl, {
    method: 'POST',
    headers: {
      'content-type': 'application/json',
      accept: 'application/json, text/event-stream',
      'mcp-protocol-version': '2025-11-25',
    },
    body: JSON.stringify({
      jsonrpc: '2.0',
      id: 1,
      method: 'tools/call',
      params: { name: 'generate_report', arguments: { rows } },
    }),
  });
  const body = (await res.json()) as { result: { content: { type: string; uri?: string }[] } };
  return body.result.content.find((b) => b.type === 'resource_link')!.uri!;
}

/** The calls whose views are timed, each with fresh arguments per run. */
const CALLS: { name: string; tool: string; args: (mcpUrl: string) => Promise<Record<string, unknown>> }[] = [
  { name: 'output-viewer', tool: 'generate_report', args: async () => ({ rows: 20_000 }) },
  {
    name: 'chart',
    tool: 'render_chart',
    args: async () => ({
      values: [3, 1, 4, 1, 5, 9, 2, 6],
      series: [{ name: 'target', values: [4, 4, 4, 4, 4, 4, 4, 4] }],
    }),
  },
  {
    name: 'approval',
    tool: 'delete_output',
    args: async (mcpUrl) => ({ uri: await storedReport(mcpUrl, 5000) }),
  },
];

/** Times each view `runs` times (a fresh page each), after one untimed run that warms the functions. */
export async function measurePaints(
  chromiumPath: string,
  hostUrl: string,
  mcpUrl: string,
  runs: number,
): Promise<ViewPaint[]> {
  const browser = await launchChromium(chromiumPath);
  try {
    const context = await browser.newContext({ viewport: { width: 1000, height: 900 } });
    await context.addInitScript(PROBE);
    const paints: ViewPaint[] = [];
    for (const call of CALLS) {
      const times: number[] = [];
      for (let run = 0; run <= runs; run++) {
        const page = await context.newPage();
        const query = new URLSearchParams({ tool: call.tool, args: JSON.stringify(await call.args(mcpUrl)) });
        await page.goto(`${hostUrl}/?${query}`);
        const deadline = Date.now() + 30_000;
        let ms: number | undefined;
        while (ms === undefined && Date.now() < deadline) {
          const frame = page.frames().find((f) => f.url().includes('/frames/'));
          ms = frame
            ? await frame.evaluate(() => (globalThis as { __viewPaintMs?: number }).__viewPaintMs)
            : undefined;
          if (ms === undefined) await new Promise((resolve) => setTimeout(resolve, 20));
        }
        await page.close();
        if (ms === undefined) throw new Error(`views benchmark: ${call.name} painted nothing within 30 s`);
        if (run > 0) times.push(ms);
      }
      times.sort((a, b) => a - b);
      paints.push({
        name: call.name,
        runs,
        p50Ms: times[Math.floor(times.length / 2)]!,
        maxMs: times.at(-1)!,
      });
    }
    return paints;
  } finally {
    await browser.close();
  }
}
