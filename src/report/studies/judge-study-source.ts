import { z } from 'zod';
import { chooseStudy } from '../../studies/chosen-study.js';
import type { StudyRun } from '../../studies/run-config.js';
import type { ReportSource } from '../report-source.js';
import { buildJudgeSection, type JudgePairSource, type JudgeSectionTrial, type JudgeStudySection } from './judge-section.js';

const pairsOfRunSchema = z.looseObject({ pairs: z.looseObject({ source: z.string(), license: z.string() }) });

/**
 * The judge study of the reported runs for `pmiyc report` (report.json `studies.judge`), or
 * undefined when none of them has judge trials (`chooseStudy`). Trials are streamed from the store; when runs are
 * combined, a (judge, pair) seen in an earlier run is counted once, from the first run listed.
 */
export function readJudgeStudy(
  store: ReportSource,
  runs: readonly StudyRun[],
  options: { replicates: number; confidence?: number },
): JudgeStudySection | undefined {
  const table = store.judge;
  const judged = chooseStudy(store, { kind: 'judge', runs, every: true }).map(({ study }) => study);
  if (judged.length === 0) return undefined;
  const sources: JudgePairSource[] = judged.flatMap((run) => {
    const parsed = pairsOfRunSchema.safeParse(run.config);
    return parsed.success ? [{ run: run.name, source: parsed.data.pairs.source, license: parsed.data.pairs.license }] : [];
  });
  const seen = runs.length > 1 ? new Set<string>() : undefined;
  const trials = function* (): Generator<JudgeSectionTrial> {
    for (const run of judged) {
      for (const trial of table.trials(run.id)) {
        const key = `${trial.model}\u0000${trial.pairId}`;
        if (seen?.has(key)) continue;
        seen?.add(key);
        yield trial;
      }
    }
  };
  return buildJudgeSection(trials(), {
    runs: judged.map((run) => run.name),
    sources,
    bootstrap: { replicates: options.replicates, confidence: options.confidence ?? 0.95, seed: runs[0]!.seed },
  });
}
