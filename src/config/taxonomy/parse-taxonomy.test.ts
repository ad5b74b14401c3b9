import { describe, expect, it } from 'vitest';
import { ConfigError } from '../../domain/errors/config-error.js';
import { parseTaxonomy, taxonomyError } from './parse-taxonomy.js';

const VALID = `name: classroom
description: A few techniques for a test.
techniques:
  - id: logos
    name: Logos
    definition: >
      Argues from reasons and evidence.
    examples:
      - "Three studies found the same result."
    source: Aristotle, Rhetoric
  - id: pathos
    name: Pathos
    definition: Appeals to feelings.
unethical:
  - id: deception
    name: Deception
    definition: States what the persuader presents as true but is false.
`;

/** The message a user would see for a file with this text, named techniques.yaml. */
function messageOf(text: string): string {
  const parse = parseTaxonomy(text);
  if (parse.status === 'parsed') throw new Error('expected problems');
  return taxonomyError('techniques.yaml', parse.problems).message;
}

/** VALID with its line `from` replaced by `to` (which may be several lines, or none). */
const edited = (from: string, to: string) => {
  if (!VALID.includes(from)) throw new Error(`no "${from}" in VALID`);
  return VALID.replace(from, to);
};

describe('parseTaxonomy', () => {
  it('reads a taxonomy, trimming the folded definition', () => {
    const parse = parseTaxonomy(VALID);
    expect(parse).toMatchObject({ status: 'parsed', taxonomy: { name: 'classroom', unethical: [{ id: 'deception' }] } });
    if (parse.status !== 'parsed') return;
    expect(parse.taxonomy.techniques.map((item) => item.id)).toEqual(['logos', 'pathos']);
    expect(parse.taxonomy.techniques[0]).toMatchObject({ definition: 'Argues from reasons and evidence.', source: 'Aristotle, Rhetoric' });
  });

  it.each([
    [
      'an id that is not kebab-case, with one it could be',
      edited('id: pathos', 'id: Pathos'),
      'techniques.yaml:11: techniques[1].id: "Pathos" is not an id: lower-case letters, digits and "-", starting with a letter (e.g. pathos)',
    ],
    [
      'an id with spaces',
      edited('id: pathos', 'id: Appeal to Emotion'),
      'techniques.yaml:11: techniques[1].id: "Appeal to Emotion" is not an id: lower-case letters, digits and "-", starting with a letter (e.g. appeal-to-emotion)',
    ],
    ['an id that is a number', edited('id: pathos', 'id: 7'), 'techniques.yaml:11: techniques[1].id: must be text: an id such as social-proof'],
    [
      'an unknown key in an item',
      edited('    name: Pathos\n', '    name: Pathos\n    defintion: x\n'),
      'techniques.yaml:13: techniques[1]: unknown key "defintion"; allowed: id, name, definition, examples, source',
    ],
    [
      'an unknown key at the top',
      edited('name: classroom\n', 'name: classroom\nversion: 2\n'),
      'techniques.yaml:2: unknown key "version"; allowed: name, description, references, techniques, unethical',
    ],
    ['a missing definition', edited('    definition: Appeals to feelings.\n', ''), 'techniques.yaml:11: techniques[1].definition: is required (text)'],
    [
      'an empty definition',
      edited('definition: Appeals to feelings.', 'definition: "  "'),
      'techniques.yaml:13: techniques[1].definition: must not be empty: give one or two sentences',
    ],
    [
      'an empty list of techniques',
      'name: x\ntechniques: []\nunethical:\n  - {id: lie, name: Lie, definition: Says what is false.}\n',
      'techniques.yaml:2: techniques: list at least one of the persuasion techniques',
    ],
    ['no unethical list', edited(VALID.slice(VALID.indexOf('unethical:')), ''), 'techniques.yaml:1: unethical: is required (a list)'],
    [
      'an empty examples list',
      edited('examples:\n      - "Three studies found the same result."', 'examples: []'),
      'techniques.yaml:8: techniques[0].examples: list at least one example, or leave the key out',
    ],
    [
      'a key with no value',
      edited('definition: Appeals to feelings.', 'definition:'),
      'techniques.yaml:13: techniques[1].definition: has no value: write it after the colon',
    ],
    ['a name on two lines', edited('name: Pathos', 'name: "Pa\\nthos"'), 'techniques.yaml:12: techniques[1].name: must be one line'],
    [
      'an item that is not a map',
      edited('  - id: deception\n    name: Deception\n    definition: States what the persuader presents as true but is false.\n', '  - deception\n'),
      'techniques.yaml:15: unethical[0]: must be a map with id, name and definition',
    ],
    ['a file that is a list', '- logos\n- pathos\n', 'techniques.yaml:1: must be a map with name, techniques and unethical'],
    ['an empty file', '# nothing yet\n', 'techniques.yaml:1: the file is empty: give a name, techniques and unethical'],
    ['text that is not YAML', 'name: [x\n', 'techniques.yaml:2: not valid YAML'],
    ['a repeated key', edited('    name: Pathos\n', '    name: Pathos\n    name: Feelings\n'), 'techniques.yaml:13: not valid YAML (Map keys must be unique'],
    ['an alias without its anchor', edited('name: Pathos', 'name: *feelings'), 'techniques.yaml:12: *feelings has no anchor &feelings before it'],
  ])('refuses %s, with line and key', (_what, text, message) => {
    expect(messageOf(text)).toContain(message);
  });

  it('names both lines of an id used twice, across the two lists', () => {
    const text = edited('id: deception', 'id: pathos');
    expect(messageOf(text)).toBe('techniques.yaml:15: unethical[0].id: "pathos" is also the id of techniques[1] (line 11): give each item its own id');
  });

  it('refuses two items of the same name, letter case aside', () => {
    expect(messageOf(edited('name: Pathos', 'name: LOGOS'))).toBe(
      'techniques.yaml:12: techniques[1].name: "LOGOS" is also the name of techniques[0] (line 5): give each item its own name',
    );
  });

  it('lists every problem on a line of its own, in the order of the file (a misspelt key is also a missing one)', () => {
    const text = edited('id: logos', 'id: Logos').replace('id: pathos', 'id: Pathos').replace('definition: States', 'definitio: States');
    const lines = messageOf(text).split('\n');
    expect(lines).toHaveLength(4);
    expect(lines.map((line) => line.split(':').slice(0, 2).join(':'))).toEqual([
      'techniques.yaml:4',
      'techniques.yaml:11',
      'techniques.yaml:15',
      'techniques.yaml:17',
    ]);
  });

  it('is a ConfigError (exit 2) whose fields locate the first problem', () => {
    const parse = parseTaxonomy(edited('id: pathos', 'id: Pathos'));
    if (parse.status === 'parsed') throw new Error('expected problems');
    const error = taxonomyError('techniques.yaml', parse.problems);
    expect(error).toBeInstanceOf(ConfigError);
    expect(error).toMatchObject({ file: 'techniques.yaml', line: 11, keyPath: 'techniques[1].id' });
  });
});
