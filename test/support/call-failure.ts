import { expect } from 'vitest';
import { ModelCallError } from '../../src/models/model-call-error.js';

/** The typed error a model call rejected with; the test fails when it resolved or threw something else. */
export async function failureOf(promise: Promise<unknown>): Promise<ModelCallError> {
  const error = await promise.then(
    () => undefined,
    (thrown: unknown) => thrown,
  );
  expect(error).toBeInstanceOf(ModelCallError);
  return error as ModelCallError;
}
