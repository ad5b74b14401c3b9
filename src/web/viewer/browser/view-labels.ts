import type { JudgeTags, TurnTags } from '../../../studies/analysis/turn-tags.js';
import { type Child, el } from '../../browser/dom.js';
import type { AnalysisSummary, RunAnalysis, TechniqueProfile } from '../../wire/view-answers.js';
import { badge, link, numberCell, table, td } from './view-parts.js';
import { modelText } from './view-text.js';

/*
 * What an analysis study's judges said of each turn (issue 29): technique chips, unethical
 * strategies marked apart, refusal and role-break badges; the label filters of a conversation list;
 * and each persuader's technique profile. Names come from a taxonomy file and judges are models:
 * all of it goes on the page as text.
 */

/** "sim/judge [simulated]". */
const judgeText = (judge: string, simulated: readonly string[]): string => modelText(judge, simulated.includes(judge));

/** Which study and judge the tags are from, or how to get tags. */
export function labelsNote(analysis: AnalysisSummary | null, run: string, analysed: boolean): HTMLElement {
  if (!analysis) return el('p', { className: 'note', id: 'labels-note' }, `No analysis study of run ${run}: pmiyc analyze --run ${run} labels its turns.`);
  if (!analysed) {
    return el(
      'p',
      { className: 'note', id: 'labels-note' },
      `Analysis study ${analysis.name} has no label of this conversation (it analysed a sample, or has not reached it yet).`,
    );
  }
  const others = analysis.judges.length > 1 ? `; the other judges (${analysis.judges.slice(1).join(', ')}) under each turn` : '';
  return el(
    'p',
    { className: 'note', id: 'labels-note' },
    `Tags from analysis study ${analysis.name}, judge ${judgeText(analysis.judge, analysis.simulated)} (taxonomy ${analysis.taxonomy.name})${others}. A judge's labels are its reading, not ground truth.`,
  );
}

/** One judge's tags of a turn as chips and badges; a turn the judge could not label says so. */
function chips(tags: JudgeTags): Child[] {
  if (!tags.labelled) return [el('span', { className: 'tag unlabelled' }, `not labelled: ${tags.problem ?? 'no usable answer'}`)];
  const none = tags.techniques.length + tags.unethical.length === 0 && !tags.refused && !tags.leftRole;
  return [
    tags.techniques.map((item) => el('span', { className: 'tag technique', 'data-technique': item.id, title: item.id }, item.name)),
    tags.unethical.map((item) =>
      el('span', { className: 'tag unethical', 'data-unethical': item.id, title: `unethical strategy: ${item.id}` }, `unethical: ${item.name}`),
    ),
    tags.refused ? badge('refused', 'refused') : '',
    tags.leftRole ? badge('left its role', 'left-role') : '',
    none ? el('span', { className: 'tag none' }, tags.role === 'persuader' ? 'no technique' : 'in role') : '',
  ];
}

const sameTags = (a: JudgeTags, b: JudgeTags): boolean => JSON.stringify(chipsKey(a)) === JSON.stringify(chipsKey(b));
const chipsKey = (tags: JudgeTags) => [
  tags.labelled,
  tags.techniques.map((item) => item.id),
  tags.unethical.map((item) => item.id),
  tags.refused,
  tags.leftRole,
];

/**
 * A turn's tags: the first judge's (the one the filters use) in full; the other judges' under a
 * summary that says how many agree, opened to compare.
 */
export function turnTags(turn: TurnTags | undefined, analysis: AnalysisSummary | null): Child {
  if (!analysis) return '';
  const first = turn?.judges.find((judge) => judge.judge === analysis.judge);
  const others = (turn?.judges ?? []).filter((judge) => judge.judge !== analysis.judge);
  const main = first ? chips(first) : [el('span', { className: 'tag unlabelled' }, `not labelled by ${analysis.judge}`)];
  const agree = first ? others.filter((other) => sameTags(other, first)).length : 0;
  return el(
    'div',
    { className: 'tags' },
    main,
    others.length > 0
      ? el(
          'details',
          { className: 'other-judges' },
          el('summary', {}, `other judges: ${agree} agree, ${others.length - agree} differ`),
          others.map((other) =>
            el('div', { className: 'tags' }, el('span', { className: 'judge' }, `${judgeText(other.judge, analysis.simulated)}:`), chips(other)),
          ),
        )
      : '',
  );
}

/** The label filters of a conversation list: technique, unethical strategy, refusal, role break, and the study when the run has several. */
export function labelFilterChoices(
  analysis: RunAnalysis | null,
  filters: Readonly<Record<string, string>>,
  choice: (filter: string, label: string, options: ReadonlyArray<readonly [string, string]>) => HTMLElement,
  go: (changes: Record<string, string>) => void,
): Child {
  if (!analysis) return '';
  const studies =
    analysis.studies.length > 1
      ? el(
          'label',
          {},
          'analysis study',
          el(
            'select',
            {
              name: 'analysis',
              onChange: (event) => go({ analysis: (event.target as HTMLSelectElement).value, technique: '', unethical: '', offset: '' }),
            },
            el('option', { value: '' }, `latest (${analysis.studies.at(-1)})`),
            analysis.studies.map((study) => el('option', { value: study, selected: filters['analysis'] === study }, study)),
          ),
        )
      : '';
  return [
    choice(
      'technique',
      'technique',
      analysis.filters.techniques.map((item) => [item.id, item.name]),
    ),
    choice(
      'unethical',
      'unethical strategy',
      analysis.filters.unethical.map((item) => [item.id, item.name]),
    ),
    choice('refused', 'refusal', analysis.filters.refused ? [['1', 'a turn refused']] : []),
    choice('leftRole', 'role break', analysis.filters.leftRole ? [['1', 'a turn left its role']] : []),
    studies,
  ];
}

const percent = (share: number): string => `${Math.round(share * 100)}%`;

/** Each persuader's technique profile per condition: the share of its labelled turns using each technique, each cell listing those conversations. */
export function techniqueProfileSection(run: string, analysis: RunAnalysis | null): Child {
  if (!analysis) {
    return [el('h2', {}, 'Techniques'), el('p', { className: 'note' }, `No analysis study of this run: pmiyc analyze --run ${run} labels each turn.`)];
  }
  const study = analysis.studies.length > 1 ? analysis.name : undefined;
  const conditions = new Map<string, TechniqueProfile[]>();
  for (const entry of analysis.techniqueProfile) {
    const key = `${entry.domain}, ${entry.setting}-turn`;
    conditions.set(key, [...(conditions.get(key) ?? []), entry]);
  }
  const tables = [...conditions.entries()].map(([condition, entries]) => {
    const columns = entries[0]?.techniques ?? [];
    const rows = entries.map((entry) =>
      el(
        'tr',
        {},
        td(
          link(
            ['runs', run, 'conversations'],
            { persuader: entry.persuader, domain: entry.domain, setting: entry.setting, analysis: study },
            modelText(entry.persuader),
          ),
        ),
        numberCell(entry.turns),
        entry.techniques.map((technique) => {
          const query = { persuader: entry.persuader, domain: entry.domain, setting: entry.setting, technique: technique.id, analysis: study };
          const cell = numberCell(link(['runs', run, 'conversations'], query, percent(technique.share)));
          cell.title = `${technique.usedTurns} of ${entry.turns} turns`;
          return cell;
        }),
      ),
    );
    return el(
      'section',
      {},
      el('h3', {}, `${condition}: share of each persuader's labelled turns using each technique`),
      table(['persuader', 'turns', ...columns.map((technique) => el('span', { title: technique.id }, technique.name))], rows, 'profile'),
    );
  });
  const filters = [
    analysis.filters.unethical.map((item) => [link(['runs', run, 'conversations'], { unethical: item.id, analysis: study }, `unethical: ${item.name}`), ' · ']),
    analysis.filters.refused ? [link(['runs', run, 'conversations'], { refused: '1', analysis: study }, 'conversations with a refusal'), ' · '] : '',
    analysis.filters.leftRole ? link(['runs', run, 'conversations'], { leftRole: '1', analysis: study }, 'conversations with a role break') : '',
  ];
  return [
    el('h2', {}, 'Techniques'),
    el(
      'p',
      { className: 'note' },
      `Judge ${judgeText(analysis.judge, analysis.simulated)} of analysis study ${analysis.name} (taxonomy ${analysis.taxonomy.name}), persuader turns of completed conversations. Intervals and technique effects: pmiyc report --run ${run}.`,
    ),
    tables.length > 0 ? tables : el('p', {}, 'No labelled persuader turn of a completed conversation yet.'),
    el('p', {}, filters),
  ];
}
