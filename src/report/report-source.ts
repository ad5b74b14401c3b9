import type { AnalysisResults } from '../studies/analysis/analysis-results.js';
import type { AnnotationResults } from '../studies/annotation/annotation-results.js';
import type { ConsistencyResults } from '../studies/consistency/consistency-results.js';
import type { JudgeResults } from '../studies/judge/judge-results.js';
import type { PeopleResults } from '../studies/people/people-results.js';
import type { ProtocolRecords } from '../studies/protocol-records.js';
import type { StudyRunRecords } from '../studies/run-config.js';
import type { TournamentResults } from '../studies/tournament/tournament-results.js';

/** What a report reads: runs, their conversations and each study's results (a store opened read-only). */
export type ReportSource = Pick<StudyRunRecords, 'findRun' | 'hasRun'> &
  Pick<TournamentResults, 'conversations'> & {
    readonly consistency: Pick<ConsistencyResults, 'samples' | 'studyNames'>;
    readonly judge: Pick<JudgeResults, 'count' | 'trials'>;
    readonly annotations: Pick<AnnotationResults, 'rows' | 'annotators'>;
    /** Analysis studies: their labels (the report's analysis sections) and drift probes (for a run whose records hold none). */
    readonly analysis: Pick<AnalysisResults, 'studyNames' | 'labels' | 'probes'>;
    /** People studies' participant lists (issue 31); absent in a store that keeps none, when only the conversations tell who took part. */
    readonly people?: Pick<PeopleResults, 'participants'>;
    /** Protocol runs' records (APE, ...), which their protocol makes its report section of. */
    readonly protocolRecords: Pick<ProtocolRecords, 'list' | 'analysisNames'>;
  };
