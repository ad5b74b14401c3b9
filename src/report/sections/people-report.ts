import { hashString } from '../../domain/random.js';
import { formatCounted } from '../../domain/text-labels.js';
import type { IntervalMethod, IntervalOptions } from '../../metrics/intervals/claim-estimates.js';
import { type PeopleAnalysis, PeopleTally } from '../../metrics/people/people-comparison.js';
import type { RunInfo } from '../../runner/run-records.js';
import type { ParticipantOutcome, ParticipantStatus, PersonRole } from '../../studies/people/people-results.js';
import type { ReportSource } from '../report-source.js';

/** How many participants the study's list holds, by where they are on their path; dropouts are those who withdrew. */
interface ParticipantCounts {
  readonly total: number;
  readonly byStatus: Readonly<Record<ParticipantStatus, number>>;
  readonly byRole: Readonly<Record<PersonRole, number>>;
  /** = byStatus.withdrawn: left, or ran out of time, before their conversation finished. */
  readonly dropouts: number;
  /** Follow-up ratings given after the study's delay. */
  readonly followUps: number;
}

/**
 * report.json `people` (issue 31, docs/design/report.md): present only when a reported run has
 * people (`person/<id>` agents, or a participant list). People are one group, compared with each
 * model in the same role on the (opponent, claim) cells both have.
 */
export interface PeopleReport extends Omit<PeopleAnalysis, 'counts'> {
  /** The participant list's counts; null when the store keeps none for these runs (then only `persons` is known). */
  readonly participants: ParticipantCounts | null;
  /** Distinct persons among the conversations. */
  readonly persons: number;
  /** Conversations of a person: completed and failed (never scored). */
  readonly conversations: { readonly completed: number; readonly failed: number };
  readonly intervals: { readonly method: IntervalMethod; readonly confidence: number; readonly unit: 'claim' };
  /** What is compared, on how many claims, and what a person's and a model's conversations are: plain sentences, shown in every format. */
  readonly statement: string;
}

const STATUSES: readonly ParticipantStatus[] = ['invited', 'consented', 'conversing', 'finished', 'withdrawn'];

function countParticipants(participants: readonly ParticipantOutcome[]): ParticipantCounts {
  const byStatus = Object.fromEntries(STATUSES.map((status) => [status, participants.filter((entry) => entry.status === status).length])) as Record<
    ParticipantStatus,
    number
  >;
  return {
    total: participants.length,
    byStatus,
    byRole: {
      persuadee: participants.filter((entry) => entry.role === 'persuadee').length,
      persuader: participants.filter((entry) => entry.role === 'persuader').length,
    },
    dropouts: byStatus.withdrawn,
    followUps: participants.filter((entry) => entry.followUp !== null).length,
  };
}

const ROLE_PLURAL = { persuadee: 'persuadees', persuader: 'persuaders' } as const;
const OPPONENTS = { persuadee: 'persuaders', persuader: 'persuadees' } as const;

/** The plain sentences every format shows above the numbers. */
function statementOf(analysis: PeopleAnalysis): string {
  const sentences: string[] = [];
  for (const estimate of analysis.estimates) {
    const where = `${estimate.domain} ${estimate.setting}-turn`;
    const rows = analysis.comparisons.filter((row) => row.domain === estimate.domain && row.setting === estimate.setting && row.role === estimate.role);
    if (rows.length === 0) {
      sentences.push(
        `${where}: there is nothing to compare: people were ${ROLE_PLURAL[estimate.role]} on ${formatCounted(estimate.claims, 'claim')}, and no model was a ${estimate.role} against the same ${OPPONENTS[estimate.role]} on any of them${estimate.modelsInRole > 0 ? '' : ' (no model was one at all)'}. Only the people's own ${estimate.measure} is given.`,
      );
      continue;
    }
    sentences.push(
      `${where}: people, pooled as one group, are compared with each model ${estimate.role} on ${estimate.measure} only on the claims both have, against the same ${OPPONENTS[estimate.role]}: ${rows
        .map(
          (row) =>
            `${row.model} on ${formatCounted(row.claims, 'claim')}${row.peopleClaimsLeftOut > 0 ? ` (${row.peopleClaimsLeftOut} of the people's claims left out)` : ''}`,
        )
        .join(', ')}.`,
    );
  }
  if (analysis.estimates.length > 0)
    sentences.push(
      "Each person is one conversation; a model's conversations on a claim are repeated samples of the same model. So people's value on a claim averages different persons, a model's averages its own repetitions, and each claim counts once in every value. Intervals are over claims; p-values are Holm-adjusted over the models compared with people in one condition and role.",
    );
  return sentences.join(' ');
}

/**
 * The report's `people` from a people analysis and the runs' participant lists (null when the
 * store keeps none). Pure: the report's collector and the tests call it alike.
 */
function buildPeopleReport(analysis: PeopleAnalysis, participants: readonly ParticipantOutcome[] | null, intervals: IntervalOptions): PeopleReport {
  const { counts, ...rest } = analysis;
  return {
    participants: participants === null ? null : countParticipants(participants),
    persons: counts.persons,
    conversations: { completed: counts.completed, failed: counts.failed },
    intervals: { method: intervals.method, confidence: intervals.confidence, unit: 'claim' },
    statement: statementOf(analysis),
    ...rest,
  };
}

/** People and models from records and participant lists (a convenience over `PeopleTally` and `buildPeopleReport`). */
function peopleReportOfRecords(
  records: Iterable<Parameters<PeopleTally['add']>[0]>,
  participants: readonly ParticipantOutcome[] | null,
  intervals: IntervalOptions,
): PeopleReport {
  const tally = new PeopleTally();
  for (const record of records) tally.add(record);
  return buildPeopleReport(tally.finish(intervals, followUpsOf(participants ?? [])), participants, intervals);
}

function followUpsOf(participants: readonly ParticipantOutcome[]) {
  return participants.flatMap((entry) =>
    entry.followUp && entry.conversationId !== null ? [{ conversationId: entry.conversationId, score: entry.followUp.score }] : [],
  );
}

/**
 * report.json `people` of the reported runs, or undefined when none has a person: a second pass
 * over their conversations, made only when the first found a person (`hasPersons`) or a run has a
 * participant list, so a report without people reads the store once as before. Conversations of
 * combined runs are counted once, from the first run listed, as in the first pass.
 */
export function readPeopleReport(
  source: Pick<ReportSource, 'conversations' | 'people'>,
  runs: readonly RunInfo[],
  intervals: IntervalOptions,
  hasPersons: boolean,
): PeopleReport | undefined {
  const lists = source.people ? runs.map((run) => source.people!.participants(run.id)) : null;
  // A store without participants for these runs (conversations written by other means) keeps no list for them.
  const listed = lists === null ? [] : lists.flat();
  const participants = listed.length === 0 ? null : listed;
  if (!hasPersons && (participants === null || participants.length === 0)) return undefined;
  const seen = runs.length > 1 ? new Set<number>() : undefined;
  function* records() {
    for (const run of runs) {
      for (const record of source.conversations(run.id)) {
        if (seen) {
          const id = hashString(record.conversationId);
          if (seen.has(id)) continue;
          seen.add(id);
        }
        yield record;
      }
    }
  }
  return peopleReportOfRecords(records(), participants, intervals);
}
