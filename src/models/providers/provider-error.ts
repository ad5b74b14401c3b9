import { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError, LoadAPIKeyError, TypeValidationError } from 'ai';
import { ModelCallError } from '../model-call-error.js';
import { type ErrorContext, httpErrorToModelCallError } from './http-error.js';

/**
 * Translates whatever a provider call threw into a ModelCallError with typed fields. The retry
 * decision (`retryable`) comes from the status code and the kind of error only. Errors that are
 * not provider errors (programming errors) are returned undefined: the caller rethrows them.
 */
export function toModelCallError(error: unknown, context: ErrorContext): ModelCallError | undefined {
  const fields = { provider: context.provider, model: context.model };
  if (LoadAPIKeyError.isInstance(error)) {
    return new ModelCallError(`${context.name}: no API key: ${error.message}`, { ...fields, reason: 'api', retryable: false }, { cause: error });
  }
  const unreadable = [JSONParseError, TypeValidationError, InvalidResponseDataError, EmptyResponseBodyError].some((kind) => kind.isInstance(error));
  if (unreadable) {
    const message = (error as Error).message.split('\n')[0];
    return new ModelCallError(
      `${context.name}: the server sent a reply pmiyc cannot read (${message})`,
      { ...fields, reason: 'api', retryable: true },
      { cause: error },
    );
  }
  if (!APICallError.isInstance(error)) return undefined;
  const { statusCode } = error;
  if (statusCode === undefined) {
    const cause = error.cause instanceof Error ? ` (${error.cause.message})` : '';
    return new ModelCallError(`${context.name}: cannot reach ${error.url}${cause}`, { ...fields, reason: 'api', retryable: true }, { cause: error });
  }
  if (statusCode < 300) {
    return new ModelCallError(
      `${context.name}: the server sent a reply pmiyc cannot read (${error.message})`,
      { ...fields, reason: 'api', statusCode, retryable: true },
      { cause: error },
    );
  }
  return httpErrorToModelCallError({ statusCode, headers: error.responseHeaders, body: error.responseBody, message: error.message }, context, error);
}
