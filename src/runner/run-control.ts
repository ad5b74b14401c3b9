import type { ChatModel, GenerateRequest } from '../models/chat-model.js';
import type { RunGate } from './run-gate.js';
import type { RunMeter } from './run-meter.js';

export interface RunControl {
  readonly gate: RunGate;
  readonly meter: RunMeter;
  /** The most a request could cost with this model's prices (0 when it has none). */
  readonly estimateCostUsd: (request: GenerateRequest) => number;
}

/**
 * Sits under the call cache, so only calls that really go to a model pass it: each must be
 * admitted by the run's gate (not stopped, within budget), and is counted in the meter.
 */
export function withRunControl(model: ChatModel, control: RunControl): ChatModel {
  return {
    name: model.name,
    simulated: model.simulated,
    async generate(request) {
      const estimateUsd = control.estimateCostUsd(request);
      control.gate.admit(estimateUsd);
      control.meter.callStarted(model.name);
      let costUsd = 0;
      try {
        const reply = await model.generate(request);
        costUsd = reply.costUsd ?? 0;
        control.meter.callEnded(model.name, { ...reply.usage, costUsd });
        return reply;
      } catch (error) {
        control.meter.callEnded(model.name, 'failed');
        throw error;
      } finally {
        control.gate.settle(estimateUsd, costUsd);
      }
    },
  };
}
