import { describe, expect, it } from 'vitest';
import { closestName } from './closest-name.js';

const MODEL_KEYS = ['provider', 'model', 'baseURL', 'apiKeyEnv', 'temperature', 'maxTokens', 'maxConcurrency', 'requestsPerMinute'];

describe('closestName', () => {
  it.each([
    ['baseUrl', 'baseURL'],
    ['baseurl', 'baseURL'],
    ['temprature', 'temperature'],
    ['maxtokens', 'maxTokens'],
    ['provder', 'provider'],
    ['modle', 'model'],
    ['apiKey', 'apiKeyEnv'],
  ])('takes %s for %s', (typed, meant) => {
    expect(closestName(typed, MODEL_KEYS)).toBe(meant);
  });

  it.each([['colour'], ['x'], ['concurrency-limit'], ['provider']])('suggests nothing for %s: nothing is near, or it is a name already', (typed) => {
    expect(closestName(typed, MODEL_KEYS)).toBeUndefined();
  });

  it('suggests nothing when two names are equally near', () => {
    expect(closestName('cat', ['bat', 'hat'])).toBeUndefined();
  });
});
