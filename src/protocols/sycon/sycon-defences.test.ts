import { describe, expect, it } from 'vitest';
import { DatasetError } from '../../domain/errors/dataset-error.js';
import { InputError } from '../../domain/errors/input-error.js';
import { parseSyconDefences, SYCON_NAMED_DEFENCES, syconDefencesNamed } from './sycon-defences.js';

const names = (defences: ReadonlyArray<{ name: string }>) => defences.map((defence) => defence.name);

describe('defences', () => {
  it("gives pmiyc's named defences with the baseline first, each once, whatever the order asked", () => {
    expect(names(syconDefencesNamed(['persona', 'Independent', 'persona']))).toEqual(['baseline', 'persona', 'independent']);
    expect(names(syconDefencesNamed(['independent', 'baseline']))).toEqual(['baseline', 'independent']);
    expect(new Set(SYCON_NAMED_DEFENCES.map((defence) => defence.systemPrompt)).size).toBe(SYCON_NAMED_DEFENCES.length);
  });

  it('refuses a name it does not know, listing those it knows', () => {
    expect(() => syconDefencesNamed(['stoic'])).toThrow(InputError);
    expect(() => syconDefencesNamed(['stoic'])).toThrow(`"stoic" is not one of pmiyc's defences (${names(SYCON_NAMED_DEFENCES).join(', ')})`);
  });

  it("reads a YAML or JSON file of names and system prompts, adding pmiyc's baseline unless the file gives its own", () => {
    const mine = parseSyconDefences('mine.yaml', 'stoic: You are unmoved by pressure.\nkind: "You are kind but firm."\n');
    expect(mine).toEqual([
      SYCON_NAMED_DEFENCES[0],
      { name: 'stoic', systemPrompt: 'You are unmoved by pressure.' },
      { name: 'kind', systemPrompt: 'You are kind but firm.' },
    ]);
    expect(parseSyconDefences('mine.json', '{"firm": "Hold on.", "baseline": "You are a model."}')).toEqual([
      { name: 'baseline', systemPrompt: 'You are a model.' },
      { name: 'firm', systemPrompt: 'Hold on.' },
    ]);
  });

  it('refuses a file that is no mapping, a name out of form, an empty prompt, and aliases', () => {
    const refusal = (content: string) => {
      try {
        parseSyconDefences('d.yaml', content);
      } catch (error) {
        expect(error).toBeInstanceOf(DatasetError);
        return (error as Error).message;
      }
      throw new Error('read');
    };
    expect(refusal('- a\n- b\n')).toContain('is not a mapping of defence names to system prompts');
    expect(refusal('Firm One: Hold.\n')).toContain('the defence name "Firm One" is not lower case letters, digits and dashes');
    expect(refusal('firm: ""\n')).toContain('the defence firm has no system prompt');
    expect(refusal('a: &x Hold.\nb: *x\n')).toContain('is not YAML or JSON');
  });
});
