import type { ChatModel, GenerateRequest } from '../models/chat-model.js';
import { type ChatModelMiddleware, decorate } from '../models/decorate.js';
import { isModelCallError, type ModelCallError } from '../models/model-call-error.js';
import { isRunStopped, type RunGate, RunStoppedError } from './run-gate.js';
import type { RunMeter } from './run-meter.js';

export interface RunControl {
  readonly gate: RunGate;
  readonly meter: RunMeter;
  /** The most a request could cost with this model's prices (0 when it has none). */
  readonly estimateCostUsd: (request: GenerateRequest) => number;
  /** Told once when a model's credentials are refused and its calls stop. */
  readonly onModelBlocked?: (model: string, error: ModelCallError) => void;
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
 * model are abandoned (resumable once the key is fixed), not recorded as failed conversations.
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
        throw error;
      } finally {
        control.gate.settle(estimateUsd, costUsd);
      }
    };
}
