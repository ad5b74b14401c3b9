import type { GenerateRequest } from '../chat-model.js';
import type { ChatModelMiddleware } from '../decorate.js';

export interface SettingsOverride {
  /** A number replaces the run's temperature; null removes it (models that reject one). */
  readonly temperature?: number | null;
  readonly maxTokens?: number;
}

/**
 * Applies a model's own configured temperature and output limit to every request, so that the
 * request that is sent (and recorded, and later cached) is the one that really reaches the model.
 * With nothing to override, the middleware passes requests through untouched.
 */
export function applySettings(override: SettingsOverride): ChatModelMiddleware {
  if (override.temperature === undefined && override.maxTokens === undefined) return (next) => next;
  const adjust = (request: GenerateRequest): GenerateRequest => {
    const { temperature, ...rest } = request;
    const nextTemperature = override.temperature === undefined ? temperature : (override.temperature ?? undefined);
    return {
      ...rest,
      ...(nextTemperature === undefined ? {} : { temperature: nextTemperature }),
      maxOutputTokens: override.maxTokens ?? request.maxOutputTokens,
    };
  };
  return (next) => (request) => next(adjust(request));
}
