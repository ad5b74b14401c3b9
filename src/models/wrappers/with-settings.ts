import type { GenerateRequest } from '../chat-model.js';
import type { ChatModelMiddleware } from '../decorate.js';

export interface SettingsOverride {
  /** A number replaces the run's temperature; null removes it (models that reject one). */
  readonly temperature?: number | null;
  readonly maxTokens?: number;
  /** False: the request's `responseFormat` is dropped (a server that does not take structured output). */
  readonly structuredOutput?: boolean;
}

/**
 * Applies a model's own configured temperature, output limit and `structuredOutput: false` to every
 * request, so that the request that is sent (and recorded, and later cached) is the one that really
 * reaches the model: without structured output, a request is hashed as one without a schema, since
 * that is what is sent. With nothing to override, the middleware passes requests through untouched.
 */
export function applySettings(override: SettingsOverride): ChatModelMiddleware {
  const plainText = override.structuredOutput === false;
  if (override.temperature === undefined && override.maxTokens === undefined && !plainText) return (next) => next;
  const adjust = (request: GenerateRequest): GenerateRequest => {
    const { temperature, responseFormat, ...rest } = request;
    const nextTemperature = override.temperature === undefined ? temperature : (override.temperature ?? undefined);
    return {
      ...rest,
      ...(nextTemperature === undefined ? {} : { temperature: nextTemperature }),
      maxOutputTokens: override.maxTokens ?? request.maxOutputTokens,
      ...(responseFormat === undefined || plainText ? {} : { responseFormat }),
    };
  };
  return (next) => (request) => next(adjust(request));
}
