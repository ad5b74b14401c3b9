import type { ChartSpec } from '../charts/chart-theme.js';
import { conditionLabel } from '../charts/chart-theme.js';
import type { RenderedChart } from '../charts/render-svg.js';
import { figureHtml, sectionHtml, tableHtml } from '../html/html-blocks.js';
import { html, type SafeHtml } from '../html/safe-html.js';
import { escapeMarkdown, markdownTable } from '../markdown/markdown-text.js';
import type { ModelLabels } from '../model-labels.js';
import type { ReportDocument } from '../report-document.js';
import type { ReportTable } from '../tables/report-tables.js';
import type { AnalysisReport, TechniquesSection } from './analysis-figures.js';
import {
  analysisConditions,
  ethicsTable,
  judgeAgreementTable,
  judgeText,
  refusalsTable,
  roleBreaksTable,
  techniqueEffectsTable,
  techniqueProfileTable,
  unusedTechniques,
} from './analysis-tables.js';
import { ETHICS_CHART_ID, ethicsChart } from './ethics-chart.js';

/**
 * The report's sections of an analysis study (issue 29): techniques, unethical strategies,
 * refusals and role breaks, and the judges' agreement. Each is shown only when report.json has its
 * field. Every text from the study (taxonomy names, judge names) goes through the writers' escaping.
 */

const SECTIONS = {
  techniques: ['techniques', 'How persuaders persuade: techniques'],
  ethics: ['ethics', 'Unethical strategies'],
  flags: ['refusals', 'Refusals and role breaks'],
  agreement: ['judge-agreement', 'Do the judges agree?'],
} as const;

/** The contents entries of the sections present. */
export function analysisTocEntries(document: AnalysisReport): Array<readonly [string, string]> {
  return [
    ...(document.techniques ? [[SECTIONS.techniques[0], 'Techniques'] as const] : []),
    ...(document.ethics ? [[SECTIONS.ethics[0], 'Unethical strategies'] as const] : []),
    ...(document.refusals || document.roleBreaks ? [[SECTIONS.flags[0], 'Refusals & role breaks'] as const] : []),
    ...(document.judgeAgreement ? [[SECTIONS.agreement[0], 'Judge agreement'] as const] : []),
  ];
}

/** The charts of the sections present (the ethics chart). */
export function analysisChartSpecs(document: AnalysisReport, labels: ModelLabels): ChartSpec[] {
  const chart = document.ethics ? ethicsChart(document.ethics, labels) : undefined;
  return chart ? [chart] : [];
}

function techniquesIntro(section: TechniquesSection): string {
  const notes = section.notes.length > 0 ? ` Note: ${section.notes.join('; ')}.` : '';
  return (
    `Judge ${judgeText(section.judge)} labelled the turns of run ${section.tournamentRun} in analysis study ${section.study} (${section.grain === 'conversation' ? 'each conversation read whole, in one call' : 'one call per turn, with the conversation up to it'}), with the taxonomy ${section.taxonomy.name} (${section.taxonomy.source}): ` +
    `${section.labelledTurns.persuader} persuader turns and ${section.labelledTurns.persuadee} persuadee turns of ${section.conversations} conversations.${notes} ` +
    `A profile is the share of a persuader's labelled turns that use each technique; an association is the persuadee's next change of agreement after turns that use a technique minus after turns that do not, within each (persuader, persuadee) pair, with 95% intervals over claims and p-values Holm-adjusted over the techniques of a condition. ` +
    `${section.statement}${section.studies.length > 1 ? ` The run has ${section.studies.length} analysis studies (${section.studies.join(', ')}): pmiyc report --analysis NAME shows another.` : ''}`
  );
}

const ETHICS_INTRO =
  "The share of each persuader's conversations in which the judge found at least one unethical strategy (any turn), per strategy too, and the share of its labelled turns with one, next to the persuader's effectiveness; and the persuadee's next change of agreement after the persuader's turns with an unethical strategy minus after its turns without (completed conversations), within each persuadee it faced, with p Holm-adjusted over the persuaders of a condition.";

const FLAGS_INTRO =
  'How often the judge found a persuader refusing to argue for the claim, and either side leaving its role (speaking as an assistant, breaking the conversation frame), as shares of labelled turns and of conversations with at least one such turn. Every labelled turn counts, failed conversations included.';

function agreementIntro(document: AnalysisReport): string {
  const section = document.judgeAgreement!;
  return `Study ${section.study} had ${section.judges.length} judges (${section.judges.map(judgeText).join(', ')}); ${section.turns} turns were labelled by two or more. Krippendorff's alpha per label, nominal on each turn's yes/no: 1 is full agreement, 0 what chance gives. 95% percentile bootstrap intervals over claims. The other sections use the first judge only.`;
}

interface Block {
  readonly id: string;
  readonly title: string;
  readonly intro: string;
  readonly parts: ReadonlyArray<{ heading?: string; table?: ReportTable; text?: string; chart?: string }>;
}

/** The sections as blocks both writers render. */
function blocksOf(document: ReportDocument): Block[] {
  const blocks: Block[] = [];
  const { techniques, ethics, refusals, roleBreaks, judgeAgreement } = document;
  if (techniques) {
    const conditions = analysisConditions(techniques.perModel);
    blocks.push({
      id: SECTIONS.techniques[0],
      title: SECTIONS.techniques[1],
      intro: techniquesIntro(techniques),
      parts: [
        ...conditions.flatMap((condition) => {
          const unused = unusedTechniques(techniques, condition);
          return [
            { heading: `Technique profiles, ${conditionLabel(condition.domain, condition.setting)}`, table: techniqueProfileTable(techniques, condition) },
            ...(unused.length > 0 ? [{ text: `Never labelled here: ${unused.join(', ')}.` }] : []),
          ];
        }),
        { heading: 'Techniques and the next change of agreement', table: techniqueEffectsTable(techniques) },
      ],
    });
  }
  if (ethics) {
    blocks.push({
      id: SECTIONS.ethics[0],
      title: SECTIONS.ethics[1],
      intro: `${ETHICS_INTRO} Judge ${judgeText(ethics.judge)}, study ${ethics.study}. ${ethics.statement}`,
      parts: [{ chart: ETHICS_CHART_ID }, { table: ethicsTable(ethics, techniques) }],
    });
  }
  if (refusals || roleBreaks) {
    const judge = (refusals ?? roleBreaks)!.judge;
    blocks.push({
      id: SECTIONS.flags[0],
      title: SECTIONS.flags[1],
      intro: `${FLAGS_INTRO} Judge ${judgeText(judge)}.`,
      parts: [
        ...(refusals ? [{ heading: 'Refusals to persuade', table: refusalsTable(refusals) }] : []),
        ...(roleBreaks ? [{ heading: 'Leaving the role', table: roleBreaksTable(roleBreaks) }] : []),
      ],
    });
  }
  if (judgeAgreement) {
    blocks.push({
      id: SECTIONS.agreement[0],
      title: SECTIONS.agreement[1],
      intro: agreementIntro(document),
      parts: [{ table: judgeAgreementTable(judgeAgreement, techniques) }],
    });
  }
  return blocks;
}

/** The Markdown sections (empty when the report has no analysis study); `image(id)` gives a chart's image line. */
export function analysisSectionsMarkdown(document: ReportDocument, labels: ModelLabels, image: (id: string) => string): string {
  return blocksOf(document)
    .map((block) => {
      const parts = block.parts.map((part) => {
        if (part.chart !== undefined) return image(part.chart);
        const heading = part.heading ? `### ${escapeMarkdown(part.heading)}\n\n` : '';
        return `${heading}${part.table ? markdownTable(part.table, labels) : escapeMarkdown(part.text ?? '')}`;
      });
      return [`## ${block.title}`, escapeMarkdown(block.intro), ...parts.filter((part) => part !== '')].join('\n\n');
    })
    .join('\n\n');
}

/** The HTML sections (nothing when the report has no analysis study). */
export function analysisSectionsHtml(document: ReportDocument, labels: ModelLabels, chart: (id: string) => RenderedChart | undefined): SafeHtml {
  return html`${blocksOf(document).map((block) =>
    sectionHtml(
      block.id,
      block.title,
      '',
      block.intro,
      block.parts.map((part) => {
        if (part.chart !== undefined) return figureHtml(chart(part.chart));
        const heading = part.heading ? html`<h3>${part.heading}</h3>` : html``;
        return html`${heading}${part.table ? tableHtml(part.table, labels) : html`<p class="intro">${part.text ?? ''}</p>`}`;
      }),
    ),
  )}`;
}
