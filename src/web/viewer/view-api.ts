import type { Domain } from '../../domain/claim.js';
import type { Setting } from '../../domain/conversation.js';
import type { ConversationRecord } from '../../domain/conversation-record.js';
import { InputError } from '../../domain/errors/input-error.js';
import { StoreError } from '../../domain/errors/store-error.js';
import { pooledAgent } from '../../domain/person-agent.js';
import { designedAgentsOf } from '../../report/designed-agents.js';
import { nothingSharedReason } from '../../report/texts/run-comparison-text.js';
import type { LeaseWorld } from '../../runner/run-lease.js';
import { describeRunState, runState } from '../../runner/run-lease.js';
import { failedItemsOf } from '../../runner/run-records.js';
import { type AnalysisConfig, analysisConfigOf } from '../../studies/analysis/analysis-design.js';
import type { AnalysisResults } from '../../studies/analysis/analysis-results.js';
import { tagItems, techniqueTag, turnTagsOf, unethicalTag } from '../../studies/analysis/turn-tags.js';
import { type ChosenStudy, chooseStudy } from '../../studies/chosen-study.js';
import type { ResearchNotes } from '../../studies/notes/research-notes.js';
import type { ProtocolOutputsLookup } from '../../studies/protocol-outputs.js';
import { type RunConfig, recordedModelsOf, type StudyRun, type StudyRunRecords, type StudyRunSummary, tournamentDesignOf } from '../../studies/run-config.js';
import { isImportedRun } from '../../studies/tournament/imported-run.js';
import type { ClaimCell, LabelFilter, PairCell, PairClaimTotal, TournamentBrowse } from '../../studies/tournament/tournament-browse.js';
import type { TournamentResults } from '../../studies/tournament/tournament-results.js';
import type { AcrossAnswer } from '../wire/across-answers.js';
import { itemsPage } from '../wire/protocol-items.js';
import type {
  AnalysisSummary,
  CallsAnswer,
  CompareAnswer,
  EstimatesAnswer,
  LabelsAnswer,
  RunAnalysis,
  RunAnswer,
  RunsAnswer,
  TechniqueProfile,
  ViewRun,
} from '../wire/view-answers.js';
import type { AcrossReader } from './across-protocols-api.js';
import { type LabelParameters, parseConversationQuery } from './conversation-query-params.js';
import { ProtocolItems, type ProtocolItemsSource } from './protocol-items.js';
import { runEstimates } from './run-estimates.js';
import { type Arm, type ArmsCompared, compareArms, modelMeans, poolPeopleCells } from './run-overview.js';

/** What `pmiyc view` reads: a store opened read-only. */
export type ViewSource = Pick<StudyRunRecords, 'findRun' | 'hasRun' | 'listRuns' | 'leases'> &
  Pick<TournamentResults, 'conversationsWithId' | 'countConversations'> & {
    readonly path: string;
    readonly browse: TournamentBrowse;
    readonly analysis: Pick<AnalysisResults, 'studyNames' | 'labelsOf'>;
    /** The store's research notes, read (writes go through the viewer's own writer: view-server.ts). */
    readonly notes: ResearchNotes;
  } & Pick<ProtocolItemsSource, 'protocolRecords'>;

export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

export type { ViewRun } from '../wire/view-answers.js';

/** The models a run's design names (a tournament's agents, a consistency study's models), else those it recorded. */
function modelsOf(config: RunConfig): string[] {
  const tournament = tournamentDesignOf(config);
  const designed = tournament ? [...tournament.persuaders, ...tournament.persuadees] : config.kind === 'consistency' ? (config.design?.models ?? []) : [];
  if (designed.length > 0) return [...new Set(designed)].sort();
  return Object.keys(recordedModelsOf(config)).sort();
}

/** Comparisons kept for a revisit (each a few hundred rows: pairs and models, not conversations). */
const COMPARISONS_KEPT = 8;

const notFound = (error: string): ApiAnswer => ({ status: 404, body: { error } });

/** The lookup of a viewer given none: it reads no protocol's runs, and says so. */
const knowsNoProtocol: ProtocolOutputsLookup = (protocol) => {
  throw new InputError(
    `this viewer was started without the readers of protocols, so it cannot show a run of the ${protocol} protocol: open the store with pmiyc view`,
  );
};

/** A bad parameter, named in the message: answered 400. */
class BadParameter extends Error {}

/** Per run, its matrices and claims as last computed, with the conversation counts they were computed at. */
interface OverviewCache {
  readonly count: number;
  readonly failed: number;
  readonly pairs: PairCell[];
  readonly claims: ClaimCell[];
}

/**
 * The JSON API of `pmiyc view` (docs/design/view.md): answers a GET of a path and its query from
 * the store, without HTTP. Aggregates of a run are computed in SQLite and kept until the run's
 * conversation count or failed count changes, so a finished run is aggregated once and a live one
 * as it grows or as `--retry-failed` replaces its failures.
 */
export class ViewApi {
  private readonly overviews = new Map<number, OverviewCache>();
  /** The last comparisons made, by query, with the conversation counts of both runs they were made at. */
  private readonly comparisons = new Map<string, { counts: string; body: unknown }>();
  /** Per analysis study, its filters and technique profile as last computed, with the label version and run counts they were computed at. */
  private readonly analyses = new Map<number, { readonly key: string; readonly analysis: RunAnalysis }>();
  /** Per run, its intervals and comparisons as last computed, with the conversation counts they were computed at. */
  private readonly estimated = new Map<number, { readonly key: string; readonly body: EstimatesAnswer }>();
  /** The runs of protocols beside PMIYC's: their lists and items, read through each run's protocol. */
  readonly protocolItems: ProtocolItems;

  /**
   * `protocolOutputs` finds a protocol run's readers' side by its protocol's name: `pmiyc view` passes the kit's
   * registry; without it, a protocol run's items are answered with why they cannot be read here.
   */
  constructor(
    private readonly source: ViewSource,
    private readonly world: () => LeaseWorld,
    protocolOutputs: ProtocolOutputsLookup = knowsNoProtocol,
    private readonly acrossProtocols?: AcrossReader,
  ) {
    this.protocolItems = new ProtocolItems(source, protocolOutputs);
  }

  answer(path: string, parameters: URLSearchParams): ApiAnswer {
    let parts: string[];
    try {
      parts = path
        .split('/')
        .slice(2)
        .map((part) => decodeURIComponent(part));
    } catch (error) {
      if (error instanceof URIError) return { status: 400, body: { error: `the path ${path} is not valid percent-encoding` } };
      throw error;
    }
    try {
      if (parts.length === 1 && parts[0] === 'runs') return { status: 200, body: { store: this.source.path, runs: this.runs() } satisfies RunsAnswer };
      if (parts.length === 2 && parts[0] === 'runs') return this.run(parts[1]!, parameters);
      if (parts.length === 3 && parts[0] === 'runs' && parts[2] === 'conversations') return this.conversations(parts[1]!, parameters);
      if (parts.length === 3 && parts[0] === 'runs' && parts[2] === 'estimates') return this.estimates(parts[1]!);
      if (parts.length === 3 && parts[0] === 'runs' && parts[2] === 'items') return this.items(parts[1]!, parameters);
      if (parts.length === 4 && parts[0] === 'runs' && parts[2] === 'items') return { status: 200, body: this.protocolItems.item(parts[1]!, parts[3]!) };
      if (parts.length === 2 && parts[0] === 'conversations') return this.conversation(parts[1]!, parameters);
      if (parts.length === 3 && parts[0] === 'conversations' && parts[2] === 'calls') return this.calls(parts[1]!, parameters);
      if (parts.length === 3 && parts[0] === 'conversations' && parts[2] === 'labels') return this.labels(parts[1]!, parameters);
      if (parts.length === 1 && parts[0] === 'compare') return this.compare(parameters);
      if (parts.length === 1 && parts[0] === 'across') return this.across(parameters);
    } catch (error) {
      if (error instanceof BadParameter) return { status: 400, body: { error: error.message } };
      if (error instanceof InputError || error instanceof StoreError) return notFound(error.message);
      throw error;
    }
    return notFound(`no such API: ${path} (see docs/design/view.md)`);
  }

  private runs(): ViewRun[] {
    const leases = this.source.leases();
    const world = this.world();
    return this.source.listRuns().map((run) => {
      const state = runState(run.status, run.stopReason, leases.get(run.id), world);
      return {
        name: run.name,
        kind: run.kind,
        protocol: run.config.kind === 'protocol' ? run.config.protocol : null,
        status: state.status,
        why: state.why ?? null,
        statusText: describeRunState(state, failedItemsOf(run)),
        live: state.status === 'running',
        createdAt: run.createdAt,
        plannedConversations: run.plannedConversations ?? null,
        completed: run.completed,
        failed: run.failed,
        studyItems: run.studyItems,
        callsMade: run.callsMade,
        costUsd: run.costUsd,
        replayed: run.replayed,
        models: this.modelsOfRun(run),
      };
    });
  }

  /** The models a run's config names; for a run without a design (an import), those of its conversations. */
  private modelsOfRun(run: StudyRunSummary): string[] {
    const configured = modelsOf(run.config);
    return configured.length > 0 || run.kind !== 'tournament' ? configured : this.source.browse.modelsOf(run.id);
  }

  private overview(run: StudyRun): OverviewCache {
    const count = this.source.countConversations(run.id);
    // A failed conversation run again (--retry-failed) replaces its record: the count stays, the failed count drops.
    const failed = this.source.countConversations(run.id, 'failed');
    const cached = this.overviews.get(run.id);
    if (cached && cached.count === count && cached.failed === failed) return cached;
    // People are one group in the run's matrices and model means, as in the report (`poolPeopleCells`).
    const fresh = { count, failed, pairs: poolPeopleCells(this.source.browse.pairCells(run.id)), claims: this.source.browse.claimCells(run.id) };
    this.overviews.set(run.id, fresh);
    return fresh;
  }

  private run(name: string, parameters: URLSearchParams): ApiAnswer {
    const info = this.source.findRun(name);
    const study = this.study(name, parameters.get('analysis') || undefined);
    const summary = this.runs().find((run) => run.name === name)!;
    const { pairs, claims } = this.overview(info);
    const models = [...new Set(pairs.flatMap((cell) => [cell.persuader, cell.persuadee]))].sort();
    const body: RunAnswer = {
      run: {
        ...summary,
        seed: isImportedRun(info) ? null : info.seed,
        packageVersion: info.packageVersion,
        gitRevision: info.gitRevision ?? null,
        config: info.storedConfig,
      },
      conditions: conditionsOf(pairs),
      models,
      failureReasons: this.source.browse.failureReasons(info.id),
      pairs,
      modelMeans: modelMeans(pairs, designedAgentsOf([info.config])),
      claims,
      analysis: study ? this.runAnalysis(info, study) : null,
    };
    return { status: 200, body };
  }

  private conversations(name: string, parameters: URLSearchParams): ApiAnswer {
    const run = this.source.findRun(name);
    const parsed = parseConversationQuery(parameters);
    if (!parsed.ok) return { status: 400, body: { error: parsed.error } };
    const labels = this.labelFilter(name, parsed.labels);
    return { status: 200, body: this.source.browse.queryConversations(run.id, { ...parsed.query, ...(labels ? { labels } : {}) }) };
  }

  /** The report's table across the protocols of the runs named (`runs=a,b,c`; docs/design/protocols.md, "One table across protocols"). */
  private across(parameters: URLSearchParams): ApiAnswer {
    const names = (parameters.get('runs') ?? '').split(',').filter((name) => name !== '');
    if (names.length < 2) throw new BadParameter('runs: name two runs or more, of two protocols or more (runs=tour,ape-a)');
    if (this.acrossProtocols === undefined) return notFound('this viewer was started without the report: open the store with pmiyc view');
    // A run the store lacks is a 404 (findRun names it); runs of fewer than two protocols a 400 that says what to name.
    for (const name of names) this.source.findRun(name);
    try {
      return { status: 200, body: this.acrossProtocols(names) satisfies AcrossAnswer };
    } catch (error) {
      if (error instanceof InputError) throw new BadParameter(`runs: ${error.message}`);
      throw error;
    }
  }

  /** A page of a protocol run's items (docs/design/protocols.md, "Viewer"), filtered by its columns' values. */
  private items(name: string, parameters: URLSearchParams): ApiAnswer {
    const page = itemsPage(this.protocolItems.table(name), parameters);
    return 'error' in page ? { status: 400, body: { error: page.error } } : { status: 200, body: page };
  }

  /**
   * The report's intervals of the run page's means and its comparisons between models (`runEstimates`),
   * from the store's per-(pair, claim) sums: one read of the covering index by claim, kept until the run's
   * conversation or failed count changes (docs/design/view.md).
   */
  private estimates(name: string): ApiAnswer {
    const run = this.source.findRun(name);
    const key = `${this.source.countConversations(run.id)}/${this.source.countConversations(run.id, 'failed')}`;
    const cached = this.estimated.get(run.id);
    if (cached?.key === key) return { status: 200, body: cached.body };
    const body: EstimatesAnswer = { run: run.name, ...runEstimates(this.source.browse.pairClaimTotals(run.id)) };
    this.estimated.set(run.id, { key, body });
    return { status: 200, body };
  }

  /** The study whose labels to read: `analysis` if given (a 400 when it is not one of the run's), else the run's latest, if any. */
  private study(run: string, asked: string | undefined): ViewedStudy | undefined {
    const runs = [this.source.findRun(run)];
    try {
      const chosen = chooseStudy(this.source, { kind: 'analysis', runs, asked });
      return chosen && { ...chosen, config: analysisConfigOf(chosen.name, chosen.study.config) };
    } catch (error) {
      if (error instanceof InputError) throw new BadParameter(`analysis: ${error.message}`);
      throw error;
    }
  }

  /** The label filters asked for, checked against the study's taxonomy, as tags of its first judge; undefined when none is asked for. */
  private labelFilter(run: string, asked: LabelParameters): LabelFilter | undefined {
    const study = this.study(run, asked.analysis);
    const wanted = (['technique', 'unethical', 'refused', 'leftRole'] as const).filter((name) => asked[name] !== undefined);
    if (wanted.length === 0) return undefined;
    if (!study) {
      throw new BadParameter(
        `run ${run} has no analysis study, so its turns have no labels to filter by (${wanted.join(', ')}): make one with pmiyc analyze --run ${run}`,
      );
    }
    const { taxonomy } = study.config.design;
    const checked = (name: 'technique' | 'unethical', id: string, items: typeof taxonomy.techniques) => {
      if (items.some((item) => item.id === id)) return id;
      const kind = name === 'technique' ? 'techniques' : 'unethical strategies';
      throw new BadParameter(
        `${name} "${id}" is not one of the ${kind} of taxonomy ${taxonomy.name} (analysis study ${study.name}): use one of ${items.map((item) => item.id).join(', ')}`,
      );
    };
    const tags = [
      ...(asked.technique === undefined ? [] : [techniqueTag(checked('technique', asked.technique, taxonomy.techniques))]),
      ...(asked.unethical === undefined ? [] : [unethicalTag(checked('unethical', asked.unethical, taxonomy.unethical))]),
      ...(asked.refused ? ['refused'] : []),
      ...(asked.leftRole ? ['left-role'] : []),
    ];
    return { study: study.study.id, judge: study.config.design.judges[0]!, tags };
  }

  /** A study's filters and technique profile for its tournament run, kept until labels are stored or the run's counts change. */
  private runAnalysis(run: StudyRun, study: ViewedStudy): RunAnalysis {
    const { design } = study.config;
    const judge = design.judges[0]!;
    const key = `${this.source.browse.labelsVersion()} ${this.source.countConversations(run.id)} ${this.source.countConversations(run.id, 'failed')}`;
    const cached = this.analyses.get(study.study.id);
    if (cached?.key === key) return cached.analysis;
    const tags = this.source.browse.labelTags(study.study.id, judge);
    const ofKind = (prefix: string) => tags.filter((tag) => tag.startsWith(prefix)).map((tag) => tag.slice(prefix.length));
    const occurring = (ids: readonly string[], items: typeof design.taxonomy.techniques) =>
      tagItems(
        items.filter((item) => ids.includes(item.id)).map((item) => item.id),
        items,
      );
    const analysis: RunAnalysis = {
      ...studySummary(study),
      filters: {
        techniques: occurring(ofKind('technique:'), design.taxonomy.techniques),
        unethical: occurring(ofKind('unethical:'), design.taxonomy.unethical),
        refused: tags.includes('refused'),
        leftRole: tags.includes('left-role'),
      },
      techniqueProfile: techniqueProfile(this.source.browse.techniqueCounts(run.id, study.study.id, judge), design.taxonomy.techniques),
    };
    this.analyses.set(study.study.id, { key, analysis });
    return analysis;
  }

  /** Each turn's tags from every judge of the study (`?analysis=`, else the run's latest) for a conversation of `?run=` (else the latest run that has it). */
  private labels(id: string, parameters: URLSearchParams): ApiAnswer {
    const { chosen } = this.found(id, parameters);
    if (!chosen) return notFound(`no conversation ${id}`);
    return { status: 200, body: this.labelsOf(chosen.run, id, parameters.get('analysis') || undefined) };
  }

  /** A conversation's tags, as `/api/conversations/:id/labels` answers for run `run` (a bundle writes them too). */
  labelsOf(run: string, id: string, analysis: string | undefined): LabelsAnswer {
    const study = this.study(run, analysis);
    return {
      run,
      analysis: study ? studySummary(study) : null,
      turns: study ? turnTagsOf(this.source.analysis.labelsOf(study.study.id, id), study.config.design.taxonomy, studyJudges(study)) : [],
    };
  }

  private found(id: string, parameters: URLSearchParams) {
    const found = this.source.conversationsWithId(id);
    const runName = parameters.get('run');
    const chosen = runName ? found.find((entry) => entry.run === runName) : found[0];
    return { found, chosen };
  }

  /** The export record with its turns and attempts; `?run=` picks the run when several have the id (else the latest). */
  private conversation(id: string, parameters: URLSearchParams): ApiAnswer {
    const { chosen } = this.found(id, parameters);
    return chosen ? { status: 200, body: chosen.record } : notFound(`no conversation ${id}${parameters.get('run') ? ` in run ${parameters.get('run')}` : ''}`);
  }

  /** The stored calls behind a conversation's attempts, and the other runs that have the same conversation id. */
  private calls(id: string, parameters: URLSearchParams): ApiAnswer {
    const { found, chosen } = this.found(id, parameters);
    if (!chosen) return notFound(`no conversation ${id}`);
    const otherRuns = found.map((entry) => entry.run).filter((name) => name !== chosen.run);
    return { status: 200, body: this.callsOf(chosen.run, chosen.record, otherRuns) };
  }

  /** A conversation's calls, as `/api/conversations/:id/calls` answers for run `run` (a bundle writes them too). */
  callsOf(run: string, record: ConversationRecord, otherRuns: string[]): CallsAnswer {
    return { run, calls: this.source.browse.callDetails(this.source.findRun(run).id, record), otherRuns };
  }

  /** `?a=RUN&b=RUN`, each optionally narrowed to a setting with `aSetting=` / `bSetting=`. */
  private compare(parameters: URLSearchParams): ApiAnswer {
    const armOf = (side: 'a' | 'b'): Arm | string => {
      const run = parameters.get(side);
      if (!run) return `name the runs to compare: ?a=RUN&b=RUN (add aSetting= and bSetting= to compare settings)`;
      const setting = parameters.get(`${side}Setting`) || undefined;
      if (setting !== undefined && setting !== 'single' && setting !== 'multi') return `${side}Setting must be single or multi`;
      return { run, ...(setting ? { setting } : {}) };
    };
    const a = armOf('a');
    const b = armOf('b');
    if (typeof a === 'string') return { status: 400, body: { error: a } };
    if (typeof b === 'string') return { status: 400, body: { error: b } };
    if ((a.setting === undefined) !== (b.setting === undefined)) return { status: 400, body: { error: 'give both aSetting and bSetting, or neither' } };
    const [aRun, bRun] = [this.source.findRun(a.run), this.source.findRun(b.run)];
    // It reads every completed conversation's NC of both runs (seconds on a million): made again only when a run changed.
    const key = JSON.stringify([a, b]);
    const counts = [aRun, bRun].map((run) => `${this.source.countConversations(run.id)}/${this.source.countConversations(run.id, 'failed')}`).join(' ');
    const cached = this.comparisons.get(key);
    if (cached?.counts === counts) return { status: 200, body: cached.body };
    // People are one group here too, as on the run page.
    const totalsOf = (arm: Arm, run: StudyRun) => pooledTotals(inSetting(this.source.browse.pairClaimTotals(run.id), arm.setting));
    const compared = compareArms(totalsOf(a, aRun), totalsOf(b, bRun), a.setting !== undefined);
    if (compared.models.length === 0) return { status: 400, body: { error: nothingToCompare(a, b, compared) } };
    const body: CompareAnswer = { a, b, ...compared };
    this.comparisons.delete(key);
    this.comparisons.set(key, { counts, body });
    if (this.comparisons.size > COMPARISONS_KEPT) this.comparisons.delete(this.comparisons.keys().next().value!);
    return { status: 200, body };
  }
}

/** The analysis study chosen for a run (`chooseStudy`) with its stored design. */
type ViewedStudy = ChosenStudy & { readonly config: AnalysisConfig };

const studyJudges = (study: ViewedStudy) => ({ judges: study.config.design.judges, simulated: study.config.simulated });

function studySummary(study: ViewedStudy): AnalysisSummary {
  const { design } = study.config;
  return {
    name: study.name,
    studies: study.studies,
    judges: design.judges,
    judge: design.judges[0]!,
    simulated: study.config.simulated,
    taxonomy: { name: design.taxonomy.name, source: design.taxonomySource },
  };
}

/** Shares of each persuader's labelled turns per technique, over every technique some persuader of the run used (in the taxonomy's order). */
function techniqueProfile(counts: ReturnType<TournamentBrowse['techniqueCounts']>, items: readonly { id: string; name: string }[]): TechniqueProfile[] {
  const used = new Set(counts.flatMap((entry) => entry.techniques.map((technique) => technique.id)));
  const ids = [...items.map((item) => item.id).filter((id) => used.has(id)), ...[...used].filter((id) => !items.some((item) => item.id === id)).sort()];
  return counts.map((entry) => {
    const usedTurns = new Map(entry.techniques.map((technique) => [technique.id, technique.usedTurns]));
    return {
      domain: entry.domain,
      setting: entry.setting,
      persuader: entry.persuader,
      turns: entry.turns,
      techniques: tagItems(ids, items).map((item) => {
        const turns = usedTurns.get(item.id) ?? 0;
        return { ...item, usedTurns: turns, share: entry.turns === 0 ? 0 : turns / entry.turns };
      }),
    };
  });
}

/** The totals of one setting, streamed; all of them without a setting. */
function* inSetting(totals: Iterable<PairClaimTotal>, setting: Setting | undefined): Iterable<PairClaimTotal> {
  for (const total of totals) if (setting === undefined || total.setting === setting) yield total;
}

/** Why two arms have no model to compare: the report's reason for two runs, a plain one for two settings of a run. */
function nothingToCompare(a: Arm, b: Arm, compared: ArmsCompared): string {
  if (a.setting !== undefined) {
    return `run ${a.run} (${a.setting}-turn) and run ${b.run} (${b.setting}-turn) hold no (opponent, claim) cell in common, so no model can be compared`;
  }
  const leftOut = {
    conditions: [],
    models: compared.notCompared.map(
      (entry) => ({ ...entry, setting: entry.setting!, measure: entry.role === 'persuader' ? 'effectiveness' : 'susceptibility' }) as const,
    ),
  };
  return nothingSharedReason({ baseline: a.run, reported: b.run }, leftOut, ['a', 'b']);
}

function conditionsOf(pairs: readonly PairCell[]): Array<{ domain: Domain; setting: Setting }> {
  const seen = new Map<string, { domain: Domain; setting: Setting }>();
  for (const cell of pairs) seen.set(`${cell.domain}/${cell.setting}`, { domain: cell.domain, setting: cell.setting });
  return [...seen.values()];
}

/** Pair totals with every person pooled into `person/*` (streamed: a tournament's totals are many). */
function* pooledTotals(totals: Iterable<PairClaimTotal>): Generator<PairClaimTotal> {
  for (const total of totals) {
    const persuader = pooledAgent(total.persuader);
    const persuadee = pooledAgent(total.persuadee);
    yield persuader === total.persuader && persuadee === total.persuadee ? total : { ...total, persuader, persuadee };
  }
}
