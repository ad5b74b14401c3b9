import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../models/chat-model.js';
import { ModelCallError } from '../models/model-call-error.js';
import { ScriptedChatModel } from '../models/scripted-model.js';
import { withRunControl } from './run-control.js';
import { RunGate, RunStoppedError } from './run-gate.js';
import { RunMeter } from './run-meter.js';

const request: GenerateRequest = { messages: [{ role: 'user', content: 'Hi' }], maxOutputTokens: 10, seed: 1 };
const refused = (statusCode: number) =>
  new ModelCallError('vllm/q: HTTP 401: bad key: check GPU_BOX_KEY (and apiKeyEnv in the config)', {
    provider: 'vllm',
    model: 'q',
    reason: 'api',
    statusCode,
    retryable: false,
  });

describe('withRunControl', () => {
  it.each([401, 403])('stops every call of a model whose credentials are refused (%i), once, and lets the others go on', async (statusCode) => {
    const gate = new RunGate();
    const meter = new RunMeter();
    const blocked: string[] = [];
    const control = { gate, meter, estimateCostUsd: () => 0, onModelBlocked: (model: string) => blocked.push(model) };
    const refusing = new ScriptedChatModel('vllm/q', [refused(statusCode), refused(statusCode), 'never asked']);
    const model = withRunControl(refusing, control);
    const other = withRunControl(new ScriptedChatModel('sim/b', ['fine']), control);

    await expect(model.generate(request)).rejects.toEqual(new RunStoppedError('auth'));
    await expect(model.generate(request)).rejects.toEqual(new RunStoppedError('auth'));
    expect(refusing.requests).toHaveLength(1);
    expect(blocked).toEqual(['vllm/q']);
    expect([...gate.blockedModels.keys()]).toEqual(['vllm/q']);
    expect(gate.stopReason).toBeUndefined();
    await expect(other.generate(request)).resolves.toMatchObject({ text: 'fine' });
    expect(meter.callsFailed).toBe(1);
  });

  it('lets other failures through as they are, for the engine to record', async () => {
    const failure = new ModelCallError('boom', { provider: 'vllm', model: 'q', reason: 'api', statusCode: 500, retryable: true });
    const model = withRunControl(new ScriptedChatModel('vllm/q', [failure]), { gate: new RunGate(), meter: new RunMeter(), estimateCostUsd: () => 0 });
    await expect(model.generate(request)).rejects.toBe(failure);
  });

  it("abandons, without counting a failure, a call whose wait the run's stop ended", async () => {
    const gate = new RunGate();
    const meter = new RunMeter();
    const model = withRunControl(new ScriptedChatModel('vllm/q', [new RunStoppedError('interrupted')]), { gate, meter, estimateCostUsd: () => 0 });
    await expect(model.generate(request)).rejects.toBeInstanceOf(RunStoppedError);
    expect(meter.callsFailed).toBe(0);
    expect(meter.trafficOf('vllm/q').started).toBe(0);
  });
});

describe('RunGate.stopped', () => {
  it('aborts with the stop reason once, when the run stops', () => {
    const gate = new RunGate();
    expect(gate.stopped.aborted).toBe(false);
    gate.stop('budget');
    gate.stop('interrupted');
    expect(gate.stopped.reason).toEqual(new RunStoppedError('budget'));
    expect(gate.stopReason).toBe('budget');
  });
});
