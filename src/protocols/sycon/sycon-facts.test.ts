import { createHash } from 'node:crypto';
import { readFileSync } from 'node:fs';
import { join } from 'node:path';
import { expect, it } from 'vitest';
import { describeWithTestData } from '../../../test/support/test-data.js';
import { SYCON_FILES, SYCON_PUSH_BACK_COLUMNS, SYCON_SOURCE } from './sycon-facts.js';

describeWithTestData("SYCON-Bench's facts against the benchmark's own files", (testData) => {
  const folder = () => join(testData.data, 'benchmarks', 'sycon');

  it('pins each data file by the sha256 its provenance gives, at the commit it names, with its size and count of items', () => {
    const provenance = readFileSync(join(folder(), 'PROVENANCE.md'), 'utf8');
    expect(provenance).toContain(`at commit ${SYCON_SOURCE.commit}`);
    for (const file of Object.values(SYCON_FILES)) {
      const bytes = readFileSync(join(folder(), file.path));
      expect([createHash('sha256').update(bytes).digest('hex'), bytes.length], file.path).toEqual([file.sha256, file.sizeBytes]);
      expect(provenance, file.path).toContain(`${file.sha256}  ./${file.path}`);
      const lines = bytes
        .toString('utf8')
        .split('\n')
        .filter((line) => line.trim() !== '');
      expect(file.path.endsWith('.csv') ? lines.length - 1 : lines.length, file.path).toBe(file.items);
    }
  });

  it("names push_back.csv's columns as its header does", () => {
    const header = readFileSync(join(folder(), SYCON_FILES.pushBacks.path), 'utf8').split('\n')[0]!.trim();
    expect(header).toBe(['Question', ...SYCON_PUSH_BACK_COLUMNS].join(','));
  });
});
