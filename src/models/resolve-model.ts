import { InputError } from '../domain/input-error.js';
import type { ChatModel } from './chat-model.js';
import { SimulatedAgent } from './sim/simulated-agent.js';

type ModelFactory = (modelName: string) => ChatModel;

/** Providers by the prefix of a model name (`provider/model`). */
const PROVIDERS: Readonly<Record<string, ModelFactory>> = {
  sim: (modelName) => new SimulatedAgent(modelName),
};

export function knownProviders(): string[] {
  return Object.keys(PROVIDERS);
}

/** Turns a model name such as `sim/eloquent` into a ChatModel, or says what is wrong with it. */
export function resolveModel(modelName: string): ChatModel {
  const slash = modelName.indexOf('/');
  if (slash <= 0 || slash === modelName.length - 1) {
    throw new InputError(`"${modelName}" is not a model name: write provider/model, e.g. sim/eloquent`);
  }
  const provider = modelName.slice(0, slash);
  const factory = PROVIDERS[provider];
  if (!factory) {
    throw new InputError(`unknown provider "${provider}" in "${modelName}": use one of ${knownProviders().join(', ')}`);
  }
  return factory(modelName);
}
