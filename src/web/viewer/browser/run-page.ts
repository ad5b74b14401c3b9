import { type Child, el, inputValue } from '../../browser/dom.js';
import type { EstimatesAnswer, RunAnswer, RunsAnswer } from '../../wire/view-answers.js';
import { bundleInfo } from './bundle-source.js';
import { protocolRunPage } from './protocol-run-page.js';
import { comparisonsSection, estimatesByKey, estimateText, intervalMark, modelKey } from './run-estimates.js';
import { bar, CLAIMS_SHOWN, type ClaimsState, claimsTable, matrix } from './run-tables.js';
import { importRunFacts, isImportRun } from './view-imported.js';
import { techniqueProfileSection } from './view-labels.js';
import { badge, link, statusBadge, table, td } from './view-parts.js';
import { api, crumbs, isCurrent, refreshWhileLive, selectable, show, showError } from './view-shell.js';
import { count, isSimulated, modelText } from './view-text.js';

type Run = RunAnswer['run'];

/** What the run page says of a run: status, counts, calls, provenance and models. */
function runFacts(run: Run, models: readonly string[]): HTMLElement {
  const imported = isImportRun(run);
  const planned = run.plannedConversations ? ` of ${count(run.plannedConversations)} planned` : '';
  const replayed = run.replayed.length ? `; replayed ${run.replayed.map((source) => `${count(source.calls)} from ${source.run}`).join(', ')}` : '';
  const revision = run.gitRevision ? ` (${run.gitRevision})` : '';
  return el(
    'dl',
    { className: 'facts' },
    el('dt', {}, 'status'),
    el('dd', {}, statusBadge(run)),
    el('dt', {}, 'kind'),
    el('dd', {}, run.kind),
    el('dt', {}, 'conversations'),
    el(
      'dd',
      {},
      run.kind === 'protocol' ? `${count(run.studyItems)} stored${planned}` : `${count(run.completed)} completed, ${count(run.failed)} failed${planned}`,
    ),
    el('dt', {}, 'calls made'),
    el('dd', {}, `${count(run.callsMade)}, $${run.costUsd.toFixed(4)}${replayed}`),
    el('dt', {}, imported ? 'imported' : 'started'),
    el('dd', {}, `${run.createdAt} by pmiyc ${run.packageVersion}${revision}${imported ? ', seed: none (imported)' : `, seed ${run.seed}`}`),
    imported ? importRunFacts(run) : [],
    el('dt', {}, 'models'),
    el('dd', {}, models.map((model) => modelText(model)).join(', ') || '-'),
  );
}

/**
 * A model's mean as a bar, or where it has none, "no data" and the reason the server gives (the
 * report's words: `noDataText` of metrics/role-coverage.ts, which this page's program cannot import).
 */
function meanOrWhy(value: number | null, reason: string | null): Child {
  if (value !== null || reason === null) return bar(value);
  return el('span', { className: 'no-data' }, `no data (${reason})`);
}

/** The claims table with its order and paging controls. */
function claimsSection(run: string, claims: RunAnswer['claims']): HTMLElement[] {
  const state: ClaimsState = { order: 'table', offset: 0 };
  const box = el('div', {}, claimsTable(run, claims, state));
  const redraw = () => box.replaceChildren(claimsTable(run, claims, state));
  const reorder = (event: Event) => {
    state.order = inputValue(event);
    state.offset = 0;
    redraw();
  };
  const previous = () => {
    state.offset = Math.max(0, state.offset - CLAIMS_SHOWN);
    redraw();
  };
  const next = () => {
    if (state.offset + CLAIMS_SHOWN < claims.length) state.offset += CLAIMS_SHOWN;
    redraw();
  };
  const orders = el(
    'select',
    { id: 'claims-order', onChange: reorder },
    el('option', { value: 'table' }, 'by claim'),
    el('option', { value: 'nc' }, 'mean NC, lowest first'),
    el('option', { value: '-nc' }, 'mean NC, highest first'),
  );
  const controls = el(
    'p',
    {},
    el('label', {}, 'order ', orders),
    ' ',
    el('button', { type: 'button', onClick: previous }, 'previous'),
    ' ',
    el('button', { type: 'button', onClick: next }, 'next'),
  );
  return [controls, box];
}

type ModelMean = RunAnswer['modelMeans'][number];
type Measure = 'effectiveness' | 'susceptibility';

/** Where each mean's interval goes once the estimates arrive, by `modelKey` / `pairKey`. */
interface EstimatePlaces {
  marks: Map<string, HTMLElement>;
  pairCells: Map<string, HTMLElement>;
  comparisons: HTMLElement;
  reportLink: () => Child;
}

/** The role a measure is of: effectiveness is a persuader's, susceptibility a persuadee's. */
const ROLE_OF_MEASURE = { effectiveness: 'persuader', susceptibility: 'persuadee' } as const;

/**
 * One model's mean of one measure: a link to the conversations it is over, and (where it has a mean) the
 * place its interval goes, registered in `marks`.
 */
function meanCell(runName: string, entry: ModelMean, measure: Measure, marks: Map<string, HTMLElement>): HTMLElement {
  const value = entry[measure];
  const reason = measure === 'effectiveness' ? entry.effectivenessReason : entry.susceptibilityReason;
  const filters = { [ROLE_OF_MEASURE[measure]]: entry.model, domain: entry.domain, setting: entry.setting };
  let place: HTMLElement | '' = '';
  if (value !== null) {
    place = el('span', { className: 'interval-place', 'data-estimate': `${entry.domain}|${entry.setting}|${measure}|${entry.model}` });
    marks.set(modelKey(entry.domain, entry.setting, measure, entry.model), place);
  }
  return td([link(['runs', runName, 'conversations'], filters, meanOrWhy(value, reason)), place]);
}

/** The rows of the model means table: each model's effectiveness and susceptibility in each condition. */
function modelMeanRows(runName: string, modelMeans: RunAnswer['modelMeans'], marks: Map<string, HTMLElement>): HTMLElement[] {
  return modelMeans.map((entry) =>
    el(
      'tr',
      {},
      td(`${entry.domain}, ${entry.setting}`),
      td(modelText(entry.model)),
      meanCell(runName, entry, 'effectiveness', marks),
      meanCell(runName, entry, 'susceptibility', marks),
    ),
  );
}

/** A link to the bundle's report where the page is in a bundle that has one, else the command that writes it. */
function reportLinkOf(runName: string): () => Child {
  const bundle = bundleInfo();
  return () =>
    bundle?.report
      ? el('a', { href: bundle.report, className: 'report-link' }, 'The report of this run (every estimate, its method and notes).')
      : `pmiyc report --run ${runName} writes these with every other estimate, its method and notes.`;
}

/** Links that compare this run with each other tournament, and its single-turn with its multi-turn setting where it has both. */
function compareLinks(runName: string, others: readonly string[], settings: readonly string[]): HTMLElement {
  return el(
    'p',
    {},
    others.map((other) => [link(['compare'], { a: other, b: runName }, `compare ${other} with this run`), ' ']),
    settings.length === 2 ? link(['compare'], { a: runName, b: runName, aSetting: 'single', bSetting: 'multi' }, 'compare single-turn with multi-turn') : '',
  );
}

/** Links to the run's conversations: all, the failed ones, the early stops, and the reader's notes. */
function conversationLinks(run: Run): HTMLElement {
  return el(
    'p',
    {},
    link(['runs', run.name, 'conversations'], null, 'all conversations'),
    ' · ',
    link(['runs', run.name, 'conversations'], { status: 'failed' }, `failed conversations (${count(run.failed)})`),
    ' · ',
    link(['runs', run.name, 'conversations'], { earlyStopped: 'true' }, 'early stops'),
    ' · ',
    link(['runs', run.name, 'notes'], null, 'your notes'),
  );
}

/** The names of the other tournaments of the store, the ones this run can be compared with. */
async function otherTournaments(runName: string): Promise<string[]> {
  const runs = (await api<RunsAnswer>('runs')).runs;
  return runs.filter((other) => other.kind === 'tournament' && other.name !== runName).map((other) => other.name);
}

/** A tournament's page below its facts: matrices, model means, comparisons, technique profile and claims. */
function showTournament(data: RunAnswer, facts: HTMLElement, others: readonly string[], places: EstimatePlaces): void {
  const run = data.run;
  const simulated = data.models.some(isSimulated);
  const settings = [...new Set(data.conditions.map((condition) => condition.setting))];
  const modelRows = modelMeanRows(run.name, data.modelMeans, places.marks);
  show(
    el('h2', {}, run.name, ' ', simulated ? badge('simulated agents', 'simulated') : ''),
    facts,
    conversationLinks(run),
    el(
      'p',
      { className: 'note' },
      "Means of the stored NC (failed conversations are not scored). Each mean's 95% interval over claims is the report's (t over claims; ~ and a paler mark when too few claims to trust it): beside each model's mean, and on hover over a pair's cell. ",
      places.reportLink(),
    ),
    data.conditions.map((condition) => matrix(run.name, condition, data.pairs, data.models, places.pairCells)),
    el('h2', {}, 'Effectiveness and susceptibility'),
    el(
      'p',
      { className: 'note' },
      "Each is the mean of the model's pair means over the opponents it faced, self-play included, as in the paper, with its 95% interval; click to list its conversations.",
    ),
    table(['condition', 'model', 'effectiveness (as persuader)', 'susceptibility (as persuadee)'], modelRows),
    el('h2', {}, 'Which differences are real'),
    places.comparisons,
    techniqueProfileSection(run.name, data.analysis),
    el('h2', {}, 'Compare'),
    compareLinks(run.name, others, settings),
    el('h2', {}, 'Claims'),
    ...claimsSection(run.name, data.claims),
  );
}

/** One run: its facts, then for a tournament its matrices, model means, comparisons and claims; for a protocol run its items. */
export async function runPage(current: number, name: string, query: URLSearchParams): Promise<void> {
  const study = query.get('analysis') || '';
  const data = await api<RunAnswer>(`runs/${encodeURIComponent(name)}${study ? `?analysis=${encodeURIComponent(study)}` : ''}`);
  if (!isCurrent(current)) return;
  const run = data.run;
  crumbs(link([], null, 'runs'), el('span', {}, run.name));
  // A protocol run has no matrix to take its models from: those its config recorded are the ones it called.
  const facts = runFacts(run, run.kind === 'protocol' ? run.models : data.models);
  const again = () => isCurrent(current) && runPage(current, name, query).catch(showError);
  if (run.kind === 'protocol') {
    await protocolRunPage(current, data, facts, query);
    return refreshWhileLive(run.live, again);
  }
  if (run.kind !== 'tournament') {
    show(el('h2', {}, run.name), facts, el('p', { className: 'note' }, `A ${run.kind} study: its tables are in pmiyc report --run ${run.name}.`));
    selectable([]);
    return refreshWhileLive(run.live, again);
  }
  const places: EstimatePlaces = {
    marks: new Map(),
    pairCells: new Map(),
    comparisons: el(
      'div',
      { id: 'comparisons-place' },
      el('p', { className: 'note' }, run.live ? 'Intervals appear once the run ends.' : 'computing intervals'),
    ),
    reportLink: reportLinkOf(run.name),
  };
  const others = await otherTournaments(run.name);
  if (!isCurrent(current)) return;
  showTournament(data, facts, others, places);
  selectable([]);
  refreshWhileLive(run.live, again);
  if (!run.live) await showEstimates(current, run.name, places);
}

/**
 * Puts the report's intervals beside the means drawn, once they arrive: the page is drawn first, since
 * on a large run they take one read of every (pair, claim) sum (then kept until the run changes).
 */
async function showEstimates(current: number, name: string, places: EstimatePlaces): Promise<void> {
  let answer: EstimatesAnswer;
  try {
    answer = await api<EstimatesAnswer>(`runs/${encodeURIComponent(name)}/estimates`);
  } catch (error) {
    if (isCurrent(current)) places.comparisons.replaceChildren(el('p', { className: 'error' }, `The intervals could not be read: ${(error as Error).message}`));
    return;
  }
  if (!isCurrent(current)) return;
  const { models, pairs } = estimatesByKey(answer);
  const confidence = answer.intervals.confidence;
  for (const [key, place] of places.marks) {
    const estimate = models.get(key);
    if (estimate) place.replaceChildren(intervalMark(estimate, confidence));
  }
  for (const [key, cell] of places.pairCells) {
    const estimate = pairs.get(key);
    if (!estimate) continue;
    cell.title = `mean NC ${estimate.mean.toFixed(2)}, ${estimateText(estimate, confidence)}`;
    cell.setAttribute('data-ci-low', String(estimate.ciLow ?? ''));
    cell.setAttribute('data-ci-high', String(estimate.ciHigh ?? ''));
  }
  places.comparisons.replaceChildren(comparisonsSection(answer, places.reportLink()));
}
