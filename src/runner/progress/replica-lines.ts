import { formatCount, formatDuration } from '../../domain/text-labels.js';
import type { ReplicaPoolView, ReplicaView } from '../../models/providers/replicas/replica-pool.js';

/** An endpoint as the display names it: without its scheme, which is the same for every replica of a model. */
function shortEndpoint(endpoint: string): string {
  return endpoint.replace(/^https?:\/\//, '');
}

function healthOf(replica: ReplicaView): string {
  if (replica.status === 'out') return `out for ${formatDuration(replica.outForMs ?? 0)}`;
  return replica.status;
}

/**
 * The live block's lines for the replicas of one model, under its line: "127.0.0.1:8001/v1: 3 in
 * flight (limit 4), 120 done, 2 failed · out for 8.0 s". At most `maxLines`; then how many are not shown.
 */
export function replicaLines(pool: ReplicaPoolView, maxLines = 4): string[] {
  const shown = pool.replicas.length <= maxLines ? pool.replicas : pool.replicas.slice(0, maxLines - 1);
  const limit = pool.replicaConcurrency === undefined ? '' : ` (limit ${pool.replicaConcurrency})`;
  const lines = shown.map((replica) => {
    const failed = replica.failed > 0 ? `, ${replica.failed} failed` : '';
    return `${shortEndpoint(replica.endpoint)}: ${replica.inFlight} in flight${limit}, ${replica.served} done${failed} · ${healthOf(replica)}`;
  });
  if (shown.length < pool.replicas.length) lines.push(`… and ${pool.replicas.length - shown.length} more replicas`);
  return lines;
}

/** For a log line: "alpha replicas 1/2 up" (only when some replica is not up). */
export function replicaTrouble(model: string, pool: ReplicaPoolView): string | undefined {
  const up = pool.replicas.filter((replica) => replica.status === 'up').length;
  return up < pool.replicas.length ? `${model} replicas ${up}/${pool.replicas.length} up` : undefined;
}

/**
 * What the replicas of a model did in a session, for its closing summary: "alpha's replicas:
 * 127.0.0.1:8001/v1 served 60, 127.0.0.1:8002/v1 served 20 (failed 3, out 1 time); 3 calls failed over".
 */
export function describeReplicaUse(model: string, pool: ReplicaPoolView): string {
  const replicas = pool.replicas.map((replica) => {
    const trouble = replica.failed > 0 ? ` (failed ${replica.failed}, out ${replica.timesOut} ${replica.timesOut === 1 ? 'time' : 'times'})` : '';
    return `${shortEndpoint(replica.endpoint)} served ${formatCount(replica.served)}${trouble}`;
  });
  const failovers = `${formatCount(pool.failovers)} ${pool.failovers === 1 ? 'call' : 'calls'} failed over`;
  return `${model}'s replicas: ${replicas.join(', ')}; ${failovers}`;
}
