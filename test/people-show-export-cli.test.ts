import { mkdtempSync, rmSync } from 'node:fs';
import { tmpdir } from 'node:os';
import { join } from 'node:path';
import { afterEach, beforeEach, describe, expect, it } from 'vitest';
import { openStore } from '../src/store/result-store.js';
import { cliInProcess } from './support/cli-in-process.js';
import { HOSTILE } from './support/hostile-records.js';
import { personConversation } from './support/people-records.js';

/** What a participant might type: markup, a Markdown link, and terminal escapes (a hyperlink, a screen clear, a title). */
const HOSTILE_TEXT = `${HOSTILE.script} ${HOSTILE.markdown} \u001b]8;;https://evil.invalid\u0007click\u001b]8;;\u0007 \u001b[2J\u001b]0;owned\u0007 done`;

let folder: string;
let storePath: string;
beforeEach(() => {
  folder = mkdtempSync(join(tmpdir(), 'pmiyc-people-cli-'));
  storePath = join(folder, 'store.sqlite');
  const store = openStore(storePath);
  const run = store.createRun({ name: 'study', seed: 1, packageVersion: 'test', config: { command: 'run' } });
  const message = (index: number) => (index % 2 === 1 ? `I answer: ${HOSTILE_TEXT}` : `An argument ${index}`);
  store.saveConversation(run.id, {
    ...personConversation({ persuader: 'opponent', persuadee: 'person/p-7f3a2c', claim: 'claim 1', nc: 0.5, message }),
    run: 'study',
  });
  store.saveConversation(run.id, { ...personConversation({ persuader: 'opponent', persuadee: 'alpha', claim: 'claim 1', nc: 0 }), run: 'study' });
  store.close();
});
afterEach(() => rmSync(folder, { recursive: true, force: true }));

const conversationId = 'c-opponent-person_p-7f3a2c-subjective-claim_1-5-r0';

describe("pmiyc show of a person's conversation", () => {
  it("names the person as a person, counts only the model's calls and prints their text without any escape sequence", async () => {
    const { done, output } = cliInProcess(['show', conversationId, '--store', storePath]);
    expect(await done).toBe(0);
    const text = output();
    expect(text).toContain('Persuadee: person/p-7f3a2c [person]');
    expect(text).toContain('I answer: <script>alert(1)</script>');
    expect(text).not.toContain('\u001b');
    expect(text).not.toContain('\u0007');
    const usage = text.slice(text.lastIndexOf('model'));
    expect(usage).toMatch(/opponent/);
    expect(usage).not.toMatch(/person\//);
  });
});

describe('pmiyc export of a people run', () => {
  it('gives a person no model and no prompt variant, and never marks them simulated', async () => {
    const { done, output } = cliInProcess(['export', '--store', storePath, '--run', 'study', '--format', 'csv']);
    expect(await done).toBe(0);
    const [header, ...rows] = output().trim().split('\n');
    const columns = header!.split(',');
    const person = rows.find((row) => row.includes('person/p-7f3a2c'))!.split(',');
    const cell = (name: string) => person[columns.indexOf(name)];
    expect(cell('persuadee')).toBe('person/p-7f3a2c');
    expect(cell('persuadeeSimulated')).toBe('false');
    expect(cell('persuadeeBaseModel')).toBe('');
    expect(cell('persuadeeVariant')).toBe('');
    expect(cell('persuaderBaseModel')).toBe('opponent');
  });
});
