import { APICallError, EmptyResponseBodyError, InvalidResponseDataError, JSONParseError, LoadAPIKeyError, TypeValidationError } from 'ai';
import { ModelCallError } from '../../model-call-error.js';
import { type ErrorContext, httpErrorToModelCallError } from './http-error.js';
import { serverText } from './server-text.js';

/**
 * Translates whatever a provider call threw into a ModelCallError with typed fields. The retry
 * decision (`retryable`) comes from the status code and the kind of error only. Errors that are
 * not provider errors (programming errors) are returned undefined: the caller rethrows them.
 *
 * The SDK's messages may repeat the server's text (a JSON parse error quotes the body), so every one
 * goes through `serverText`, and no ModelCallError keeps the SDK's error as its cause: it holds the
 * raw body, headers and request.
 */
export function toModelCallError(error: unknown, context: ErrorContext): ModelCallError | undefined {
  const fields = { provider: context.provider, model: context.model };
  const said = (text: string) => serverText(text, context.secrets);
  if (LoadAPIKeyError.isInstance(error)) {
    return new ModelCallError(`${context.name}: no API key: ${said(error.message)}`, { ...fields, reason: 'api', retryable: false });
  }
  const unreadable = [JSONParseError, TypeValidationError, InvalidResponseDataError, EmptyResponseBodyError].some((kind) => kind.isInstance(error));
  if (unreadable) {
    const message = said((error as Error).message).split('\n')[0];
    return new ModelCallError(`${context.name}: the server sent a reply pmiyc cannot read (${message})`, { ...fields, reason: 'api', retryable: true });
  }
  if (!APICallError.isInstance(error)) return undefined;
  const { statusCode } = error;
  if (statusCode === undefined) {
    const cause = error.cause instanceof Error ? ` (${said(error.cause.message)})` : '';
    return new ModelCallError(`${context.name}: cannot reach ${said(error.url)}${cause}`, {
      ...fields,
      reason: 'api',
      retryable: true,
      transportFailure: 'unreachable',
    });
  }
  if (statusCode < 300) {
    return new ModelCallError(`${context.name}: the server sent a reply pmiyc cannot read (${said(error.message)})`, {
      ...fields,
      reason: 'api',
      statusCode,
      retryable: true,
    });
  }
  return httpErrorToModelCallError({ statusCode, headers: error.responseHeaders, body: error.responseBody, message: error.message }, context);
}
