import type { Domain } from '../domain/claim.js';
import { PAPER_CLAIM_SETS } from '../domain/paper-claim-sets.js';
import type { ClaimSetBound } from '../metrics/intervals/power.js';
import type { ReportRun } from './report-document.js';

/** A `pmiyc run` that argued every claim of its set (no --limit, no --sample): its stored design says how its claims were chosen. */
function arguedWholeSet({ runConfig: config }: ReportRun): boolean {
  if (config?.kind !== 'tournament' || config.command !== 'run') return false;
  const selection = config.design?.claims;
  return selection !== undefined && selection.limit === undefined && selection.sample === undefined;
}

/**
 * The size of each domain's whole claim set, as far as the report can know it: the paper's set
 * (961 subjective, 817 misinformation) when every claim seen comes from it, whatever the runs
 * chose of it; else the claims the runs argued when each of them argued its whole set (its own
 * file, `examples`); else null (a sample of a file, claims an import could not place).
 */
export function claimSetBounds(
  claimSets: ReadonlyArray<{ readonly domain: Domain; readonly origin: string; readonly claims: number }>,
  runs: readonly ReportRun[],
): Map<Domain, ClaimSetBound | null> {
  const bounds = new Map<Domain, ClaimSetBound | null>();
  for (const domain of new Set(claimSets.map((set) => set.domain))) {
    const sets = claimSets.filter((set) => set.domain === domain);
    const paper = PAPER_CLAIM_SETS[domain];
    if (sets.every((set) => paper.origins.includes(set.origin))) bounds.set(domain, { claims: paper.claims, source: `the paper's ${paper.name} set` });
    else if (runs.length > 0 && runs.every(arguedWholeSet))
      bounds.set(domain, { claims: sets.reduce((total, set) => total + set.claims, 0), source: 'every claim the run argued' });
    else bounds.set(domain, null);
  }
  return bounds;
}
