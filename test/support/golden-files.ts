import { createHash } from 'node:crypto';
import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { dirname, join, relative } from 'node:path';

/**
 * Golden files: what a command wrote (normalised), compared with the copy committed under a fixture
 * folder. Content up to `LARGEST_WHOLE_FIXTURE_BYTES` is committed whole, so a change shows as a
 * readable diff in git and in the test's message; larger content is committed as `<name>.sha256`,
 * its sha256 and one digest per block of `BLOCK_LINES` lines, so the fixture stays small and a failure
 * still names the first block that changed (and shows its lines as they are now).
 */
const LARGEST_WHOLE_FIXTURE_BYTES = 50_000;
const DIGEST_SUFFIX = '.sha256';
const BLOCK_LINES = 8;
const BLOCK_DIGEST_HEX = 16;
const LONGEST_LINE_SHOWN = 600;
const CONTEXT_BEFORE_DIFFERENCE = 120;

/** Normalised outputs by their file name inside the fixture folder ('store.txt', 'report/models.csv'). */
export type Outputs = ReadonlyMap<string, string>;

const sha256 = (text: string) => createHash('sha256').update(text).digest('hex');
const linesOf = (text: string) => text.split('\n');
/** One digest per block of `BLOCK_LINES` lines. */
function blockDigests(lines: readonly string[]): string[] {
  const digests: string[] = [];
  for (let start = 0; start < lines.length; start += BLOCK_LINES)
    digests.push(sha256(lines.slice(start, start + BLOCK_LINES).join('\n')).slice(0, BLOCK_DIGEST_HEX));
  return digests;
}
const shown = (line: string | undefined) =>
  line === undefined ? '(no such line)' : line.length > LONGEST_LINE_SHOWN ? `${line.slice(0, LONGEST_LINE_SHOWN)}...` : line;

/** Two versions of a line, from a little before the first character where they differ (lines of a JSONL export are long). */
function shownPair(before: string | undefined, after: string | undefined): [string, string] {
  if (before === undefined || after === undefined) return [shown(before), shown(after)];
  let at = 0;
  while (at < before.length && before[at] === after[at]) at += 1;
  const from = Math.max(0, at - CONTEXT_BEFORE_DIFFERENCE);
  const cut = (line: string) => `${from > 0 ? `(from character ${from + 1}) ...` : ''}${shown(line.slice(from))}`;
  return [cut(before), cut(after)];
}

function digestFixture(name: string, content: string): string {
  const lines = linesOf(content);
  return [
    `# ${name}: ${Buffer.byteLength(content)} bytes (over ${LARGEST_WHOLE_FIXTURE_BYTES}), kept as its sha256 and a digest of each block of ${BLOCK_LINES} lines`,
    `sha256 ${sha256(content)} lines ${lines.length}`,
    ...blockDigests(lines),
    '',
  ].join('\n');
}

/** Replaces the fixture folder's content with `outputs` (UPDATE_FIXTURES=1). */
export function writeFixtures(folder: string, outputs: Outputs): void {
  rmSync(folder, { recursive: true, force: true });
  for (const [name, content] of outputs) {
    const whole = Buffer.byteLength(content) <= LARGEST_WHOLE_FIXTURE_BYTES;
    const path = join(folder, whole ? name : `${name}${DIGEST_SUFFIX}`);
    mkdirSync(dirname(path), { recursive: true });
    writeFileSync(path, whole ? content : digestFixture(name, content));
  }
}

function filesUnder(folder: string): string[] {
  if (!existsSync(folder)) return [];
  return readdirSync(folder, { recursive: true, withFileTypes: true })
    .filter((entry) => entry.isFile())
    .map((entry) => relative(folder, join(entry.parentPath, entry.name)));
}

/** The first line where `now` differs from a fixture kept whole, both sides shown. */
function wholeDifference(name: string, fixture: string, now: string): string | undefined {
  if (fixture === now) return undefined;
  const [before, after] = [linesOf(fixture), linesOf(now)];
  const at = after.findIndex((line, index) => line !== before[index]);
  const line = at === -1 ? after.length : at;
  const [fixtureLine, nowLine] = shownPair(before[line], after[line]);
  return `${name} line ${line + 1} (of ${before.length} in the fixture, ${after.length} now):\n  fixture: ${fixtureLine}\n  now:     ${nowLine}`;
}

/** The first block of lines where `now` differs from a fixture kept as digests, shown as it is now. */
function digestDifference(name: string, fixture: string, now: string): string | undefined {
  const [, header = '', ...digests] = linesOf(fixture).filter((line) => line !== '');
  const after = linesOf(now);
  if (header === `sha256 ${sha256(now)} lines ${after.length}`) return undefined;
  const at = blockDigests(after).findIndex((digest, block) => digest !== digests[block]);
  const first = (at === -1 ? digests.length : at) * BLOCK_LINES;
  const block = after.slice(first, first + BLOCK_LINES).map((line) => `  now: ${shown(line)}`);
  return [
    `${name} lines ${first + 1}-${first + BLOCK_LINES} (${header.split(' ').at(-1)} lines in the fixture, ${after.length} now; the fixture keeps a digest per ${BLOCK_LINES} lines, so the first block that differs is shown as it is now):`,
    ...(block.length > 0 ? block : ['  now: (no such lines)']),
  ].join('\n');
}

/**
 * How `outputs` differ from the fixture folder: one message per file that changed, appeared or went
 * missing (none when all are identical). On a difference the outputs are kept in a temp folder,
 * named in the last message, to diff at leisure.
 */
export function differencesFromFixtures(folder: string, outputs: Outputs): string[] {
  const differences: string[] = [];
  const fixtures = new Set(filesUnder(folder));
  for (const [name, now] of outputs) {
    if (fixtures.delete(name)) {
      const difference = wholeDifference(name, readFileSync(join(folder, name), 'utf8'), now);
      if (difference) differences.push(difference);
    } else if (fixtures.delete(`${name}${DIGEST_SUFFIX}`)) {
      const difference = digestDifference(name, readFileSync(join(folder, `${name}${DIGEST_SUFFIX}`), 'utf8'), now);
      if (difference) differences.push(difference);
    } else differences.push(`${name} is new: the fixture folder has no ${name} (nor ${name}${DIGEST_SUFFIX})`);
  }
  for (const missing of fixtures) differences.push(`${missing} is in the fixture folder but was not written now`);
  if (differences.length > 0) {
    const kept = mkdtempSync(join(tmpdir(), 'pmiyc-output-identity-now-'));
    for (const [name, content] of outputs) {
      mkdirSync(dirname(join(kept, name)), { recursive: true });
      writeFileSync(join(kept, name), content);
    }
    differences.push(`the outputs as they are now are kept in ${kept} (compare with ${folder})`);
  }
  return differences;
}
