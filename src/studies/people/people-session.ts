import type { PmiycConfig } from '../../config/config-schema.js';
import { claimsChecksum } from '../../datasets/claims-checksum.js';
import { claimsRecordOf } from '../../datasets/licences.js';
import type { Claim } from '../../domain/claim.js';
import { checkModels } from '../../runner/models/check-models.js';
import { openRun } from '../../runner/open-run.js';
import type { RunAbout } from '../../runner/run-records.js';
import { type RunSession, type SessionWorld, startRunSession } from '../../runner/run-session.js';
import { type SessionEnding, sessionEnding } from '../../runner/session-ending.js';
import type { Sampling } from '../design-parts.js';
import type { StudyRun, StudyRunRecords } from '../run-config.js';
import type { TournamentResults } from '../tournament/tournament-results.js';
import { type CompareProgress, runComparisons } from './compare-models.js';
import { type ExperimentText, experimentTextOf } from './experiment-text.js';
import type { PeopleDesign } from './people-design.js';
import type { PeopleRecords, PersonRole } from './people-results.js';
import { peopleStudyToContinue } from './people-resume.js';
import { PeopleStudy } from './people-study.js';

/** Calls in flight at once in a people study's session (the opponent's replies and the --compare conversations); every call goes through the run's cache. */
export const PEOPLE_SESSION_CONCURRENCY = 16;

export interface PeopleStudyInput {
  readonly store: StudyRunRecords & TournamentResults & { readonly people: PeopleRecords };
  readonly name: string;
  readonly role: PersonRole;
  readonly opponent: string;
  /** Models that play the person's side on every claim too (`--compare`): a run that has both. */
  readonly compare: readonly string[];
  readonly claims: readonly Claim[];
  readonly claimSource: string;
  readonly turns: number;
  readonly sampling: Sampling;
  readonly seed: number;
  readonly text: ExperimentText;
  /** The open link's token hash and capacity (`--open N`): kept with a new run; a restart keeps the stored hash. */
  readonly openLink?: { readonly tokenHash: string; readonly capacity: number };
  readonly config: PmiycConfig;
  /** False (`--no-check-models`): serve without first checking that the models answer (see `RunSessionOptions.checkModels`). */
  readonly checkModels?: boolean;
  readonly about: RunAbout;
  readonly world: SessionWorld;
  readonly newParticipantId: () => string;
}

export interface ServedPeopleStudy {
  readonly run: StudyRun;
  readonly resumed: boolean;
  readonly study: PeopleStudy;
  readonly text: ExperimentText;
  readonly role: PersonRole;
  readonly openLink?: { readonly tokenHash: string; readonly capacity: number };
  /** How far the --compare conversations are. */
  readonly compareProgress: CompareProgress;
  /** Stops every conversation, waits for them, and ends the session (the run is interrupted: a restart continues it). */
  end(): Promise<SessionEnding>;
}

/**
 * Opens (or continues) a people study's run and its session: the run's lease, the opponent behind
 * the call cache and gate, and the participants as stored. A run of the same name is continued with
 * its stored study (role, opponent, turns, texts, open link); what the command line says differently
 * is refused rather than mixed in (`peopleStudyToContinue`, the one resume's).
 */
export async function openPeopleStudy(input: PeopleStudyInput): Promise<ServedPeopleStudy> {
  const { store } = input;
  const continued = peopleStudyToContinue(store, input.name, input);
  const stored = continued?.stored;
  // The models are checked (configured, keys named) before any run is made.
  const models = checkModels(input.config, input.world.env, [input.opponent, ...input.compare]);
  const text = stored ? experimentTextOf(stored.text, `the texts stored with people study ${input.name}`) : input.text;
  const openLink = stored?.openLink ? { tokenHash: stored.openLink.tokenHash, capacity: input.openLink?.capacity ?? stored.openLink.capacity } : input.openLink;
  const { run, resumed } = openRun(store, {
    resume: continued !== undefined,
    name: input.name,
    kind: 'tournament',
    prefix: 'people',
    nameFlag: '--run',
    noun: 'people study',
    howToStart: 'start one with pmiyc people serve',
    content: { noun: 'claims', source: input.claimSource, checksum: claimsChecksum(input.claims) },
    seed: input.seed,
    about: input.about,
    create: () => ({ config: newPeopleRunConfig(input, openLink, models) }),
  });
  const session = await startPeopleSession(input, run, resumed);
  const design: PeopleDesign = {
    role: input.role,
    opponent: input.opponent,
    claims: input.claims,
    turns: input.turns,
    sampling: input.sampling,
    runSeed: run.seed,
  };
  const study = newPeopleStudy(input, run, design, text, session);
  study.resumeAll();
  const stopCompare = new AbortController();
  const compare = runComparisons({
    design,
    models: input.compare,
    modelFor: (name) => session.registry.modelFor(name),
    runName: run.name,
    isStored: (conversationId) => store.conversationStatus(run.id, conversationId) !== undefined,
    save: async (record) => await store.saveConversation(run.id, record),
    abortSignal: AbortSignal.any([stopCompare.signal, session.gate.stopped]),
    tell: input.world.tell,
  });
  return {
    run,
    resumed,
    study,
    text,
    role: input.role,
    ...(openLink ? { openLink } : {}),
    compareProgress: compare.progress,
    async end() {
      stopCompare.abort(new Error('the study server stopped'));
      await Promise.all([study.stop(), compare.done]);
      const ending = sessionEnding({ status: 'stopped', stopReason: 'interrupted' }, 0, input.world.signals);
      await session.end(ending);
      return ending;
    },
  };
}

/** The stored config of a new people study's run: its design as a tournament (people on one side), the study's own options, its claims and models. */
function newPeopleRunConfig(input: PeopleStudyInput, openLink: PeopleStudyInput['openLink'], models: ReturnType<typeof checkModels>): Record<string, unknown> {
  const persuaders = input.role === 'persuader' ? ['person/*', ...input.compare] : [input.opponent];
  const persuadees = input.role === 'persuadee' ? ['person/*', ...input.compare] : [input.opponent];
  return {
    command: 'people serve',
    design: {
      persuaders,
      persuadees,
      settings: ['multi'],
      multiTurns: input.turns,
      repetitions: 1,
      claims: { source: input.claimSource },
      sampling: input.sampling,
    },
    people: {
      role: input.role,
      opponent: input.opponent,
      compare: [...input.compare],
      turns: input.turns,
      text: input.text,
      ...(openLink ? { openLink } : {}),
    },
    claims: claimsRecordOf(input.claims),
    models,
  };
}

/** Starts the run's session (the opponent's and compared models' registry, cache and gate); a new run that fails to start is discarded while still empty. */
async function startPeopleSession(input: PeopleStudyInput, run: StudyRun, resumed: boolean): Promise<RunSession> {
  const { progress: _progress, ...quietWorld } = input.world;
  try {
    return await startRunSession(
      {
        records: input.store,
        run,
        resumed,
        config: input.config,
        names: [input.opponent, ...input.compare],
        concurrency: PEOPLE_SESSION_CONCURRENCY,
        cache: true,
        unit: 'conversations',
        total: 0,
        command: 'pmiyc people serve',
        ...(input.checkModels === false ? { checkModels: false } : {}),
      },
      quietWorld,
    );
  } catch (error) {
    if (!resumed) input.store.discardRunIfEmpty(run.id);
    throw error;
  }
}

/** The study that serves people: its records in the store, the opponent from the session, people's own replies cached per run. */
function newPeopleStudy(input: PeopleStudyInput, run: StudyRun, design: PeopleDesign, text: ExperimentText, session: RunSession): PeopleStudy {
  const { store } = input;
  return new PeopleStudy({
    runId: run.id,
    runName: run.name,
    design,
    text,
    records: {
      ...bind(store.people),
      saveConversation: async (runId, record) => await store.saveConversation(runId, record),
      storedTurns: (conversationId) => store.conversationsWithId(conversationId).find((stored) => stored.run === run.name)?.record.turns,
    },
    opponent: session.registry.modelFor(input.opponent),
    personCache: store.callCache(run.id, { reuseEarlierRuns: false }),
    now: input.world.now,
    newParticipantId: input.newParticipantId,
    tell: input.world.tell,
  });
}

/** The store's participant methods, bound (the study keeps them apart from the store). */
function bind(people: PeopleRecords): PeopleRecords {
  return {
    participants: (runId) => people.participants(runId),
    participantRows: (runId) => people.participantRows(runId),
    invite: (runId, row) => people.invite(runId, row),
    update: (runId, id, change) => people.update(runId, id, change),
    recordFollowUp: (runId, id, followUp) => people.recordFollowUp(runId, id, followUp),
  };
}
