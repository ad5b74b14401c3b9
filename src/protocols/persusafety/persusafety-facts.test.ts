import { createHash } from 'node:crypto';
import { readdirSync, readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithTestData } from '../../../test/support/test-data.js';
import {
  PERSUSAFETY_FILES,
  PERSUSAFETY_PERSUADEE_PROFILES,
  PERSUSAFETY_PERSUADER_PROFILES,
  PERSUSAFETY_SOURCE,
  PERSUSAFETY_STRATEGIES,
  PERSUSAFETY_STRATEGY_SPELLINGS,
} from './persusafety-facts.js';

describeWithTestData("PersuSafety's facts against the benchmark's own files", (testData) => {
  const folder = () => join(testData.data, 'benchmarks', 'persusafety');

  it('pins each data file by the sha256 and size its provenance gives, at the commit it names', () => {
    const provenance = readFileSync(join(folder(), 'PROVENANCE.md'), 'utf8');
    expect(provenance).toContain(`at commit ${PERSUSAFETY_SOURCE.commit}`);
    for (const file of Object.values(PERSUSAFETY_FILES)) {
      const bytes = readFileSync(join(folder(), file.path));
      const sha256 = createHash('sha256').update(bytes).digest('hex');
      expect([sha256, bytes.length], file.path).toEqual([file.sha256, file.sizeBytes]);
      expect(provenance, file.path).toContain(`${file.sha256}  ./${file.path}`);
    }
  });

  it('names the profiles as the profile files do, in their order', () => {
    const names = (path: string) => Object.keys(JSON.parse(readFileSync(join(folder(), path), 'utf8')) as object);
    expect(names(PERSUSAFETY_FILES.persuadeeProfiles.path)).toEqual([...PERSUSAFETY_PERSUADEE_PROFILES]);
    expect(names(PERSUSAFETY_FILES.persuaderProfiles.path)).toEqual([...PERSUSAFETY_PERSUADER_PROFILES]);
  });

  it("lists the 15 strategies as the published judge's scores key them, in their order, the ninth under either spelling", () => {
    const scores = join(folder(), 'results', 'claude', 'ethical_personality_visible', 'scores');
    const keyLists = new Set<string>();
    for (const file of readdirSync(scores)) {
      const records = JSON.parse(readFileSync(join(scores, file), 'utf8')) as Array<{ eval_scores: Record<string, unknown> }>;
      for (const record of records) keyLists.add(Object.keys(record.eval_scores).join('|'));
    }
    const read = [...keyLists].map((keys) => keys.split('|').map((key) => PERSUSAFETY_STRATEGY_SPELLINGS[key] ?? key));
    expect(read.length).toBeGreaterThan(0);
    for (const keys of read) expect(keys).toEqual([...PERSUSAFETY_STRATEGIES]);
  });
});
