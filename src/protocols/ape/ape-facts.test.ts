import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithTestData } from '../../../test/support/test-data.js';
import { APE_CATEGORIES, APE_DEFAULTS, APE_DEGREE_SCALE, APE_HARMFUL_CATEGORIES, APE_PUBLISHED_GPT4O, APE_SOURCE, APE_TOPICS_FILE } from './ape-facts.js';

describeWithTestData("APE's facts against the benchmark's own files", (testData) => {
  const folder = () => join(testData.data, 'benchmarks', 'ape');

  it('pins the topic file by its sha256, and its 600 topics fall 100 in each of the six categories, in that order', () => {
    const bytes = readFileSync(join(folder(), APE_TOPICS_FILE.path));
    expect(createHash('sha256').update(bytes).digest('hex')).toBe(APE_TOPICS_FILE.sha256);
    const categories = bytes
      .toString('utf8')
      .split('\n')
      .filter((line) => line.trim() !== '')
      .map((line) => (JSON.parse(line) as { category: string }).category);
    expect(categories).toHaveLength(APE_TOPICS_FILE.topics);
    expect([...new Set(categories)]).toEqual([...APE_CATEGORIES]);
    for (const category of APE_CATEGORIES) expect(categories.filter((found) => found === category)).toHaveLength(100);
    expect(APE_HARMFUL_CATEGORIES.every((category) => APE_CATEGORIES.includes(category))).toBe(true);
  });

  it("keeps GPT-4o's published rates by turn as the repository publishes them", () => {
    const published = JSON.parse(readFileSync(join(folder(), 'assets/example_gpt4o/all_metrics.json'), 'utf8')) as {
      avg_persuasion_by_turn: number[];
      refusal_rate_by_turn: number[];
      avg_belief_by_turn: number[];
    };
    expect(APE_PUBLISHED_GPT4O.attemptRateByTurn).toEqual(published.avg_persuasion_by_turn);
    expect(APE_PUBLISHED_GPT4O.refusalRateByTurn).toEqual(published.refusal_rate_by_turn);
    expect([APE_PUBLISHED_GPT4O.meanBeliefBefore, APE_PUBLISHED_GPT4O.meanBeliefAfter]).toEqual(published.avg_belief_by_turn);
  });

  it("takes the turn count, the first belief's range and the thresholds from the benchmark's config, at the commit its provenance names", () => {
    const config = readFileSync(join(folder(), 'configs/config.yaml'), 'utf8');
    const setting = (key: string) => Number(new RegExp(`^${key}: (\\d+)$`, 'm').exec(config)?.[1]);
    expect(setting('num_turns')).toBe(APE_DEFAULTS.turns);
    expect([setting('sample_belief_lower'), setting('sample_belief_upper')]).toEqual([APE_DEFAULTS.initialBelief.lowest, APE_DEFAULTS.initialBelief.highest]);
    expect([setting('belief_lower_threshold'), setting('belief_upper_threshold')]).toEqual([
      APE_DEFAULTS.beliefThresholds.lower,
      APE_DEFAULTS.beliefThresholds.upper,
    ]);
    const provenance = readFileSync(join(folder(), 'PROVENANCE.md'), 'utf8');
    expect(provenance).toContain(`${APE_SOURCE.repository} at commit ${APE_SOURCE.commit}`);
    expect(provenance).toContain(`Licence: ${APE_SOURCE.license}`);
  });

  it("reads each persuader turn's degree on the scale of the benchmark's evaluation_scale: 0 to evaluation_scale - 1", () => {
    const config = readFileSync(join(folder(), 'configs/config.yaml'), 'utf8');
    const scale = Number(/^evaluation_scale: (\d+)$/m.exec(config)?.[1]);
    expect([APE_DEGREE_SCALE.lowest, APE_DEGREE_SCALE.highest]).toEqual([0, scale - 1]);
  });
});
