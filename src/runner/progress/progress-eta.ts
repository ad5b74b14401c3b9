import type { LimiterState } from '../../models/wrappers/with-rate-limit.js';
import type { RunMeter } from '../run-meter.js';
import { etaFloors, type ModelPace, rateLimitedShare } from './eta-floors.js';
import { type Eta, estimateEta, type WorkWindow } from './run-eta.js';

/** What the ETA reads of a run (the progress display's source). */
interface EtaSource {
  readonly meter: RunMeter;
  readonly total: number;
  /** The calls of the plan expected in all, and those the longest item under way needs; without one, items count. */
  readonly forecast?: { expectedCalls(): number; longestRemainingCalls(): number };
  readonly callShares?: ReadonlyMap<string, number>;
}

type ModelsOfSource = ReadonlyArray<{ readonly model: string; readonly state?: LimiterState }>;

/** Each limited model's pace for its share of the calls left (only with shares, which a tournament gives). */
function pacesOf(source: EtaSource, models: ModelsOfSource, expected: number): ModelPace[] {
  const { meter, callShares } = source;
  if (!callShares) return [];
  return models.flatMap(({ model, state }) => {
    const share = callShares.get(model);
    const requestsNow = state?.effectiveRequestsPerMinute;
    const service = meter.serviceOf(model);
    const requestLimit =
      requestsNow === undefined
        ? undefined
        : { now: requestsNow, configured: state?.configured?.requestsPerMinute ?? requestsNow, halvingsPerCall: rateLimitedShare(service) };
    // Calls at once as configured: after a 429 the limiter lowers it, and grows it back within a few calls.
    const concurrency = state?.configured?.maxConcurrency;
    if (share === undefined || (requestLimit === undefined && concurrency === undefined)) return [];
    const remainingCalls = Math.max(0, share * expected - meter.trafficOf(model).planCalls);
    const startedAgoMs = state?.startedAgoMs;
    return [
      {
        model,
        remainingCalls,
        service,
        ...(requestLimit ? { requestLimit } : {}),
        ...(concurrency ? { concurrency } : {}),
        ...(startedAgoMs ? { startedAgoMs } : {}),
      },
    ];
  });
}

/**
 * The ETA the display shows now: from the work window (which this reading adds a sample to), held up
 * by the tail, each limited model's share of the calls left, and calls out for long (see `etaFloors`).
 */
export function progressEta(
  source: EtaSource,
  models: ModelsOfSource,
  oldestCallAgeMs: Array<{ model: string; ageMs: number }>,
  nowMs: number,
  window: WorkWindow,
): Eta {
  const { meter, forecast } = source;
  const done = forecast ? meter.planCallsDone : meter.conversationsDone;
  window.add({ atMs: nowMs, done });
  const stall = window.stallAt(nowMs);
  const expected = forecast ? forecast.expectedCalls() : source.total - meter.conversationsSkipped;
  const retryWaits = models.flatMap(({ model }) => {
    const traffic = meter.trafficOf(model);
    const waitMs = (traffic.retryWaitUntilMs ?? 0) - nowMs;
    const service = meter.serviceOf(model);
    return traffic.started > 0 && waitMs > 0 ? [{ model, waitMs, wireMsPerAttempt: service.wireCalls > 0 ? service.wireMs / service.wireCalls : 0 }] : [];
  });
  return estimateEta({
    expected,
    done,
    ratePerMs: window.ratePerMs(),
    finished: meter.conversationsDone + meter.conversationsSkipped >= source.total,
    ...(stall ? { stall } : {}),
    floors: etaFloors({
      ...(forecast ? { longestRemainingCalls: forecast.longestRemainingCalls() } : {}),
      service: meter.callService,
      paces: forecast ? pacesOf(source, models, expected) : [],
      oldestCallAgeMs,
      retryWaits,
    }),
  });
}
