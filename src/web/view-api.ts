import type { Domain } from '../domain/claim.js';
import type { Setting } from '../domain/conversation.js';
import { InputError } from '../domain/errors/input-error.js';
import { StoreError } from '../domain/errors/store-error.js';
import { nothingSharedReason } from '../report/run-comparison-text.js';
import type { LeaseWorld } from '../runner/run-lease.js';
import { describeRunState, runState } from '../runner/run-lease.js';
import { failedItemsOf, type RunInfo, type RunRecords, type RunSummary } from '../runner/run-records.js';
import { isImportedRun } from '../studies/tournament/imported-run.js';
import type { ClaimCell, PairCell, PairClaimTotal, TournamentBrowse } from '../studies/tournament/tournament-browse.js';
import type { TournamentResults } from '../studies/tournament/tournament-results.js';
import { parseConversationQuery } from './conversation-query-params.js';
import { type Arm, type ArmsCompared, compareArms, modelMeans } from './run-overview.js';
import type { CallsAnswer, CompareAnswer, RunAnswer, RunsAnswer, ViewRun } from './view-api-answers.js';

/** What `pmiyc view` reads: a store opened read-only. */
export type ViewSource = Pick<RunRecords, 'findRun' | 'listRuns' | 'leases'> &
  Pick<TournamentResults, 'conversationsWithId' | 'countConversations'> & { readonly path: string; readonly browse: TournamentBrowse };

export interface ApiAnswer {
  readonly status: number;
  readonly body: unknown;
}

export type { ViewRun } from './view-api-answers.js';

function modelsOf(config: unknown): string[] {
  const design = (config as { design?: { persuaders?: unknown; persuadees?: unknown; models?: unknown } } | null)?.design;
  const models = [design?.persuaders, design?.persuadees, design?.models].flatMap((list) =>
    Array.isArray(list) ? list.filter((entry) => typeof entry === 'string') : [],
  );
  if (models.length > 0) return [...new Set(models)].sort();
  const configured = (config as { models?: unknown } | null)?.models;
  return configured && typeof configured === 'object' ? Object.keys(configured).sort() : [];
}

/** Comparisons kept for a revisit (each a few hundred rows: pairs and models, not conversations). */
const COMPARISONS_KEPT = 8;

const notFound = (error: string): ApiAnswer => ({ status: 404, body: { error } });

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

  constructor(
    private readonly source: ViewSource,
    private readonly world: () => LeaseWorld,
  ) {}

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
      if (parts.length === 2 && parts[0] === 'runs') return this.run(parts[1]!);
      if (parts.length === 3 && parts[0] === 'runs' && parts[2] === 'conversations') return this.conversations(parts[1]!, parameters);
      if (parts.length === 2 && parts[0] === 'conversations') return this.conversation(parts[1]!, parameters);
      if (parts.length === 3 && parts[0] === 'conversations' && parts[2] === 'calls') return this.calls(parts[1]!, parameters);
      if (parts.length === 1 && parts[0] === 'compare') return this.compare(parameters);
    } catch (error) {
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
  private modelsOfRun(run: RunSummary): string[] {
    const configured = modelsOf(run.config);
    return configured.length > 0 || run.kind !== 'tournament' ? configured : this.source.browse.modelsOf(run.id);
  }

  private overview(run: RunInfo): OverviewCache {
    const count = this.source.countConversations(run.id);
    // A failed conversation run again (--retry-failed) replaces its record: the count stays, the failed count drops.
    const failed = this.source.countConversations(run.id, 'failed');
    const cached = this.overviews.get(run.id);
    if (cached && cached.count === count && cached.failed === failed) return cached;
    const fresh = { count, failed, pairs: this.source.browse.pairCells(run.id), claims: this.source.browse.claimCells(run.id) };
    this.overviews.set(run.id, fresh);
    return fresh;
  }

  private run(name: string): ApiAnswer {
    const info = this.source.findRun(name);
    const summary = this.runs().find((run) => run.name === name)!;
    const { pairs, claims } = this.overview(info);
    const models = [...new Set(pairs.flatMap((cell) => [cell.persuader, cell.persuadee]))].sort();
    const body: RunAnswer = {
      run: {
        ...summary,
        seed: isImportedRun(info) ? null : info.seed,
        packageVersion: info.packageVersion,
        gitRevision: info.gitRevision ?? null,
        config: info.config,
      },
      conditions: conditionsOf(pairs),
      models,
      failureReasons: this.source.browse.failureReasons(info.id),
      pairs,
      modelMeans: modelMeans(pairs),
      claims,
    };
    return { status: 200, body };
  }

  private conversations(name: string, parameters: URLSearchParams): ApiAnswer {
    const run = this.source.findRun(name);
    const parsed = parseConversationQuery(parameters);
    if (!parsed.ok) return { status: 400, body: { error: parsed.error } };
    return { status: 200, body: this.source.browse.queryConversations(run.id, parsed.query) };
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
    const run = this.source.findRun(chosen.run);
    const body: CallsAnswer = {
      run: chosen.run,
      calls: this.source.browse.callDetails(run.id, chosen.record),
      otherRuns: found.map((entry) => entry.run).filter((name) => name !== chosen.run),
    };
    return { status: 200, body };
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
    const totalsOf = (arm: Arm, run: RunInfo) => inSetting(this.source.browse.pairClaimTotals(run.id), arm.setting);
    const compared = compareArms(totalsOf(a, aRun), totalsOf(b, bRun), a.setting !== undefined);
    if (compared.models.length === 0) return { status: 400, body: { error: nothingToCompare(a, b, compared) } };
    const body: CompareAnswer = { a, b, ...compared };
    this.comparisons.delete(key);
    this.comparisons.set(key, { counts, body });
    if (this.comparisons.size > COMPARISONS_KEPT) this.comparisons.delete(this.comparisons.keys().next().value!);
    return { status: 200, body };
  }
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
