import { describe, expect, it } from 'vitest';
import { InputError } from '../../domain/errors/input-error.js';
import { checkConsistencyFlags } from './consistency-design.js';

describe('checkConsistencyFlags: a study asks models or reads a published file, not both', () => {
  it.each([
    [{ models: ['a'], resume: false }],
    [{ resume: true }],
    [{ import: 'gpt4.csv', resume: false }],
    [{ import: 'gpt4.csv', model: 'gpt-4', resume: false }],
  ])('takes %j', (options) => {
    expect(() => checkConsistencyFlags(options)).not.toThrow();
  });

  it.each([
    [{ import: 'gpt4.csv', models: ['a'], resume: false }, 'give either --models'],
    [{ import: 'gpt4.csv', resume: true }, 'an import is finished at once'],
    [{ model: 'gpt-4', resume: false }, '--model names the model of an --import file'],
  ])('refuses %j', (options, message) => {
    expect(() => checkConsistencyFlags(options)).toThrow(InputError);
    expect(() => checkConsistencyFlags(options)).toThrow(message);
  });
});
