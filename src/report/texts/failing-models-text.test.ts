import { describe, expect, it } from 'vitest';
import type { RoleCoverage } from '../../metrics/role-coverage.js';
import { type FailedConversation, failingModelsLines, tallyModelFailures } from './failing-models-text.js';

const commands = { storePath: 'runs.db', runName: 'r1', configPath: '/home/me/pmiyc.yaml' };
const failure = (
  persuader: string,
  persuadee: string,
  failedRole: 'persuader' | 'persuadee',
  reason: FailedConversation['failureReason'],
  detail: string | null,
) => ({
  persuader,
  persuadee,
  failedRole,
  failureReason: reason,
  failureDetail: detail,
  claim: "Cities shouldn't charge for buses",
  question: null,
});
const covered = (model: string, scored: number): RoleCoverage => ({
  domain: 'subjective',
  setting: 'single',
  role: 'persuader',
  model,
  conversations: 6,
  scored,
  unscoredBy: {},
});
const TAGS = 'no usable reply in 3 attempts: the reply has neither <message> nor <support_ranking> tags';

describe('the closing lines name each failing model, its cause, and only what can help', () => {
  it('a model that never wrote the format: pmiyc converse with it, a variant or another model; not --retry-failed', () => {
    const failed = [failure('chatty', 'chatty', 'persuadee', 'format', TAGS), failure('sim/eloquent', 'chatty', 'persuadee', 'format', TAGS)];
    const lines = failingModelsLines(tallyModelFailures(failed, [covered('chatty', 0), covered('sim/eloquent', 3)]), commands);
    expect(lines).toEqual([
      `chatty: 2 conversations failed at its turn (format: ${TAGS}); it never wrote a usable reply, so asking again would not help: see what it writes (failedAttempts[].raw) with pmiyc converse --config /home/me/pmiyc.yaml --persuader chatty --persuadee chatty --claim 'Cities shouldn'\\''t charge for buses' --turns 3 --json; then try a prompt variant (docs/design/variants.md) or another model`,
    ]);
    expect(lines.join('\n')).not.toContain('--retry-failed');
  });

  it('a model whose other conversations were scored: asking again may help', () => {
    const lines = failingModelsLines(tallyModelFailures([failure('a', 'b', 'persuader', 'format', null)], [covered('a', 5)]), commands);
    expect(lines).toEqual([
      'a: 1 conversation failed at its turn (format: replies without the reply format); its other conversations were scored, so asking again may work: pmiyc run --store runs.db --run r1 --retry-failed',
    ]);
  });

  it('calls that failed: check that the model answers, then ask again', () => {
    const detail = 'dead: cannot reach http://127.0.0.1:9/v1/chat/completions (connect ECONNREFUSED 127.0.0.1:9)';
    const lines = failingModelsLines(tallyModelFailures([failure('a', 'dead', 'persuadee', 'api', detail)], []), commands);
    expect(lines).toEqual([
      `dead: 1 conversation failed at its turn (api: ${detail}); check that it answers with pmiyc models --check --models dead --config /home/me/pmiyc.yaml, then ask them again: pmiyc run --store runs.db --run r1 --retry-failed`,
    ]);
  });

  it('several models and causes, most failures first, the failing role deciding whose they are', () => {
    const failed = [
      failure('a', 'b', 'persuader', 'context', null),
      failure('a', 'b', 'persuadee', 'refusal', null),
      failure('c', 'b', 'persuadee', 'refusal', null),
      failure('a', 'c', 'persuader', 'api', null),
    ];
    const lines = failingModelsLines(tallyModelFailures(failed, [covered('a', 1), covered('b', 1)]), commands);
    expect(lines.map((line) => line.slice(0, line.indexOf(';')))).toEqual([
      'a: 1 conversation failed at its turn (api: calls that failed)',
      'a: 1 conversation failed at its turn (context: context window exceeded)',
      'b: 2 conversations failed at its turn (refusal: refusals)',
    ]);
    expect(lines[1]).toContain('fewer --turns, a lower --max-tokens or a model with a longer context');
  });
});
