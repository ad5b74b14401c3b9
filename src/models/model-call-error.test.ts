import { describe, expect, it, vi } from 'vitest';
import { InputError } from '../domain/errors/input-error.js';
import { isModelCallError, ModelCallError } from './model-call-error.js';

const FIELDS = { provider: 'openai', model: 'gpt-4o-mini', reason: 'api', statusCode: 429, retryable: true, retryAfterMs: 2000 } as const;

describe('isModelCallError', () => {
  it('recognises a ModelCallError made by another copy of the module, where instanceof fails', async () => {
    vi.resetModules();
    const copy = await import('./model-call-error.js');
    expect(copy.ModelCallError).not.toBe(ModelCallError);
    const foreign = new copy.ModelCallError('429 from openai', FIELDS);
    expect(foreign).not.toBeInstanceOf(ModelCallError);
    expect(isModelCallError(foreign)).toBe(true);
    expect(copy.isModelCallError(new ModelCallError('429 from openai', FIELDS))).toBe(true);
  });

  it('recognises its own, and nothing else: not another pmiyc error, not a look-alike without the marker', () => {
    expect(isModelCallError(new ModelCallError('429 from openai', FIELDS))).toBe(true);
    expect(isModelCallError(new InputError('bad flag'))).toBe(false);
    expect(isModelCallError(Object.assign(new Error('429'), { kind: 'provider', ...FIELDS }))).toBe(false);
    expect(isModelCallError(undefined)).toBe(false);
    expect(isModelCallError('ModelCallError')).toBe(false);
  });
});

describe('ModelCallError', () => {
  it('holds no control character or escape sequence in its message, whoever builds it', () => {
    const error = new ModelCallError('alpha: HTTP 500: failed \u001b]0;pwned\u0007\u001b[2Jhere\r', FIELDS);
    expect(error.message).toBe('alpha: HTTP 500: failed here');
    expect(error.stack).not.toContain('\u001b');
  });
});
