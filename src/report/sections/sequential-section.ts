import type { SequentialSummary } from '../../metrics/sequential/sequential-replay.js';
import { sectionHtml, tableHtml } from '../html/html-blocks.js';
import type { SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportTable } from '../tables/report-tables.js';

/** The section's id (its anchor and contents entry). */
export const SEQUENTIAL_SECTION_ID = 'sequential';

const fixed = (value: number | null) => (value === null ? 'n/a' : value.toFixed(3));

function sequentialTable(summary: SequentialSummary): ReportTable {
  return {
    header: ['quantity', 'kind', 'mean', 'anytime-valid interval', 'claims', 'settled'],
    rows: summary.quantities.map((quantity) => [
      quantity.key,
      quantity.kind,
      fixed(quantity.mean),
      `[${fixed(quantity.lower)}, ${fixed(quantity.upper)}]`,
      quantity.count,
      quantity.settled ? 'yes' : 'no',
    ]),
  };
}

function introText(summary: SequentialSummary): string {
  const why =
    summary.stoppedBecause === 'settled'
      ? 'it stopped because every quantity was settled'
      : summary.stoppedBecause === 'claims ran out'
        ? 'the claims ran out before every quantity was settled'
        : 'it has not finished (stopped before the claims ran out or everything settled)';
  const precision = summary.precision === undefined ? 'comparisons only (no --precision)' : `estimates to a width below ${summary.precision}`;
  return (
    `This run was sequential (pmiyc run --until settled, waves of ${summary.wave} claims, ${precision}): it ran ${summary.claimsRun} of ${summary.claimsPlanned} claims, and ${why}. ` +
    `The intervals below are anytime-valid confidence sequences (hedged betting), ${Math.round(summary.confidence * 1000) / 10}% for all of them together, valid at the data-driven stop; ` +
    'a comparison is settled when its interval excludes 0, an estimate when it is narrower than the precision. ' +
    'The fixed-design intervals and p-values elsewhere in this report assume the number of claims was fixed in advance: they are not valid after this stop. See docs/design/sequential.md.'
  );
}

/** The HTML section (`id="sequential"`). */
export function sequentialSectionHtml(summary: SequentialSummary, labels: ModelLabels): SafeHtml {
  return sectionHtml(SEQUENTIAL_SECTION_ID, 'Sequential stopping', '', introText(summary), [tableHtml(sequentialTable(summary), labels)]);
}

/** The Markdown section. */
export function sequentialSectionMarkdown(summary: SequentialSummary, labels: ModelLabels): string {
  return ['## Sequential stopping', escapeMarkdown(introText(summary)), markdownTable(sequentialTable(summary), labels)].join('\n\n');
}
