import type { ChatModel, GenerateRequest } from '../models/chat-model.js';
import { type ChatModelMiddleware, decorate } from '../models/decorate.js';
import { lastingCauseOf } from '../models/lasting-failure.js';
import { isModelCallError, ModelCallError } from '../models/model-call-error.js';
import { DEAD_AFTER_FAILURES, isRunStopped, type RunGate, RunStoppedError } from './run-gate.js';
import type { RunMeter } from './run-meter.js';

export interface RunControl {
  readonly gate: RunGate;
  readonly meter: RunMeter;
  /** The most a request could cost with this model's prices (0 when it has none). */
  readonly estimateCostUsd: (request: GenerateRequest) => number;
  /** Told once when a model's credentials are refused and its calls stop. */
  readonly onModelBlocked?: (model: string, error: ModelCallError) => void;
  /** Told once when a model is stopped: `DEAD_AFTER_FAILURES` calls in a row failed with a lasting cause, the last with `error`. */
  readonly onModelStopped?: (model: string, error: ModelCallError) => void;
  /** The run's clock in ms, to say how long ago a model's last error was; without it, failures keep no error. */
  readonly now?: () => number;
}

const LABEL_CHARACTERS = 40;

/**
 * A call error as the progress display shows it: the HTTP status when there is one, else the
 * start of the message without the model's name ("no reply within 60000 ms (timeoutMs)").
 */
export function callErrorLabel(error: ModelCallError, modelName: string): string {
  if (error.statusCode !== undefined) return `HTTP ${error.statusCode}`;
  const message = error.message.startsWith(`${modelName}: `) ? error.message.slice(modelName.length + 2) : error.message;
  return message.length > LABEL_CHARACTERS ? `${message.slice(0, LABEL_CHARACTERS - 1)}…` : message;
}

/** 401 and 403: the key is wrong, expired or lacks permission; no later call of this run can succeed. */
function isRefusedCredentials(error: unknown): error is ModelCallError {
  return isModelCallError(error) && (error.statusCode === 401 || error.statusCode === 403);
}

/**
 * Sits under the call cache, so only calls that really go to a model pass it: each must be
 * admitted by the run's gate (not stopped, within budget, model not blocked), and is counted in
 * the meter. Refused credentials block the model at once: that call and every later one of the
 * model are abandoned (resumable once the key is fixed), not recorded as failed conversations. A
 * model whose calls fail with another lasting cause (cannot reach, no such model) `DEAD_AFTER_FAILURES`
 * times in a row is stopped by the gate (`refuseStoppedModel` then fails its later calls).
 */
export function withRunControl(model: ChatModel, control: RunControl): ChatModel {
  return decorate(model, [controlRun(control)]);
}

/** The run-control layer as a middleware, for a model's ordered list of layers (see `withRunControl`). */
export function controlRun(control: RunControl): ChatModelMiddleware {
  return (next, model) =>
    async function generate(request) {
      const estimateUsd = control.estimateCostUsd(request);
      control.gate.admit(estimateUsd, model.name);
      control.meter.callStarted(model.name);
      let costUsd = 0;
      try {
        const reply = await next(request);
        control.gate.modelAnswered(model.name);
        costUsd = reply.costUsd ?? 0;
        control.meter.callEnded(model.name, { ...reply.usage, costUsd });
        return reply;
      } catch (error) {
        if (isRunStopped(error)) {
          control.meter.callEnded(model.name, 'abandoned');
          throw error;
        }
        const failed = isModelCallError(error) && control.now ? { label: callErrorLabel(error, model.name), atMs: control.now() } : undefined;
        control.meter.callEnded(model.name, { failed });
        if (isRefusedCredentials(error)) {
          if (control.gate.blockModel(model.name, error.message)) control.onModelBlocked?.(model.name, error);
          throw new RunStoppedError('auth');
        }
        if (lastingCauseOf(error) !== undefined && control.gate.modelFailedLastingly(model.name, error as ModelCallError)) {
          control.onModelStopped?.(model.name, error as ModelCallError);
        }
        throw error;
      } finally {
        control.gate.settle(estimateUsd, costUsd);
      }
    };
}

/**
 * The error a call of a stopped model fails with, at once: its cause, and that it was not asked. Its typed
 * fields are the cause's, not retryable, so the work fails with that cause (a conversation is stored failed,
 * for --retry-failed to ask again once the model answers).
 */
function stoppedModelError(modelName: string, cause: ModelCallError): ModelCallError {
  return new ModelCallError(`${cause.message}; not asked: ${modelName} was stopped after ${DEAD_AFTER_FAILURES} calls in a row failed so`, {
    provider: cause.provider,
    model: cause.model,
    reason: cause.reason,
    retryable: false,
    ...(cause.statusCode === undefined ? {} : { statusCode: cause.statusCode }),
    ...(cause.transportFailure === undefined ? {} : { transportFailure: cause.transportFailure }),
  });
}

/**
 * Fails every call of a model the gate stopped (`RunGate.modelFailedLastingly`) at once, with
 * `stoppedModelError`. The outermost of a run's layers: nothing is asked, shared, counted or recorded as
 * a failed call, since no call is made.
 */
export function refuseStoppedModel(gate: RunGate): ChatModelMiddleware {
  return (next, model) => async (request) => {
    const cause = gate.stoppedModels.get(model.name);
    if (cause) throw stoppedModelError(model.name, cause);
    return await next(request);
  };
}
