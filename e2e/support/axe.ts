import { createRequire } from 'node:module';
import { readFile } from 'node:fs/promises';
import type { Page } from 'playwright-core';

/** The impacts a page must never have: axe's "serious" and "critical". */
const BLOCKING = new Set(['serious', 'critical']);

let axeSource: Promise<string> | undefined;

/** axe-core's browser build, read once per test file. */
function loadAxeSource(): Promise<string> {
  axeSource ??= readFile(createRequire(import.meta.url).resolve('axe-core/axe.min.js'), 'utf8');
  return axeSource;
}

interface FoundNode {
  target: string;
  impact: string | null;
  summary: string;
}

/**
 * The serious and critical accessibility violations axe-core finds on the page as it is now, one line per
 * element: the rule id, then the element's selector (and, for contrast, the colours axe measured). An empty
 * list means the page passes. Runs WCAG 2.0/2.1 A and AA rules and axe's best practices, as the issue asks.
 */
export async function seriousViolations(page: Page): Promise<string[]> {
  const loaded = await page.evaluate(() => 'axe' in window);
  // Evaluated rather than added as a <script>: the app's Content-Security-Policy refuses inline scripts.
  if (!loaded) await page.evaluate(await loadAxeSource());
  const violations = await page.evaluate(async () => {
    const engine = (window as unknown as { axe: { run(context: Document, options: object): Promise<{ violations: unknown[] }> } }).axe;
    const result = await engine.run(document, { resultTypes: ['violations'] });
    type Violation = { id: string; nodes: Array<{ target: unknown[]; impact: string | null; any: Array<{ message: string }> }> };
    return (result.violations as Violation[]).flatMap((violation) =>
      violation.nodes.map((node): FoundNode & { id: string } => ({
        id: violation.id,
        target: node.target.map(String).join(' '),
        impact: node.impact,
        // The measured colours say at once which token fails.
        summary: violation.id === 'color-contrast' ? (node.any[0]?.message ?? '') : '',
      })),
    );
  });
  return violations
    .filter((node) => node.impact !== null && BLOCKING.has(node.impact))
    .map((node) => `${node.id}: ${node.target}${node.summary ? ` (${node.summary})` : ''}`);
}
