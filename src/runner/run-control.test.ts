import { describe, expect, it } from 'vitest';
import type { GenerateRequest } from '../models/chat-model.js';
import { decorate } from '../models/decorate.js';
import { ModelCallError } from '../models/model-call-error.js';
import { ScriptedChatModel } from '../models/scripted-model.js';
import { refuseStoppedModel, withRunControl } from './run-control.js';
import { DEAD_AFTER_FAILURES, RunGate, RunStoppedError } from './run-gate.js';
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

const unreachable = () =>
  new ModelCallError('vllm/q: cannot reach http://gpu-1:8000/v1/chat/completions (connect ECONNREFUSED)', {
    provider: 'vllm',
    model: 'q',
    reason: 'api',
    retryable: true,
    transportFailure: 'unreachable',
  });
const notFound = () =>
  new ModelCallError('vllm/q: HTTP 404: no such model: check that "q" is a model (or deployment) this server has', {
    provider: 'vllm',
    model: 'q',
    reason: 'api',
    statusCode: 404,
    retryable: false,
  });
const serverError = () => new ModelCallError('vllm/q: HTTP 500: boom', { provider: 'vllm', model: 'q', reason: 'api', statusCode: 500, retryable: true });

/** A model under the run's two layers that stop a dead model: the refusal outermost, run control beneath. */
function stoppable(script: ConstructorParameters<typeof ScriptedChatModel>[1]) {
  const gate = new RunGate();
  const stopped: string[] = [];
  const scripted = new ScriptedChatModel('vllm/q', script);
  const control = { gate, meter: new RunMeter(), estimateCostUsd: () => 0, onModelStopped: (model: string) => stopped.push(model) };
  const model = decorate(withRunControl(scripted, control), [refuseStoppedModel(gate)]);
  return { gate, stopped, scripted, model };
}

describe('a model whose calls fail with a lasting cause', () => {
  it.each([
    ['cannot reach', unreachable],
    ['no such model (404)', notFound],
  ])('is stopped after %s 3 times in a row: told once, and its later calls fail at once with the cause, unasked', async (_cause, failure) => {
    const { gate, stopped, scripted, model } = stoppable([failure(), failure(), failure(), 'never asked']);
    for (let call = 1; call <= DEAD_AFTER_FAILURES; call++) await expect(model.generate(request)).rejects.toBeInstanceOf(ModelCallError);
    expect(stopped).toEqual(['vllm/q']);
    await expect(model.generate(request)).rejects.toMatchObject({
      message: `${failure().message}; not asked: vllm/q was stopped after 3 calls in a row failed so`,
      retryable: false,
      reason: 'api',
    });
    expect(scripted.requests).toHaveLength(DEAD_AFTER_FAILURES);
    expect(gate.stopReason).toBeUndefined();
    expect([...gate.stoppedModels.keys()]).toEqual(['vllm/q']);
  });

  it('is not stopped when an answer came between its failures, nor counted for failures retrying may mend', async () => {
    const { stopped, scripted, model } = stoppable([unreachable(), unreachable(), 'answered', unreachable(), serverError(), unreachable(), 'answered']);
    for (let call = 1; call <= 6; call++) await model.generate(request).catch(() => undefined);
    await expect(model.generate(request)).resolves.toMatchObject({ text: 'answered' });
    expect(stopped).toEqual([]);
    expect(scripted.requests).toHaveLength(7);
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
