import { InputError } from '../../domain/errors/input-error.js';
import type { Random } from '../../domain/random.js';
import type { GenerateRequest } from '../chat-model.js';
import type { SimProfile } from './sim-profile.js';

/**
 * How a protocol beside PMIYC's teaches simulated agents its requests (docs/design/simulated-agents.md,
 * "Protocols"). `src/models` may not import a protocol, so the protocol hands its simulated replies down: the
 * study gives one of these to its session, the model registry gives it to every `sim/` agent it builds, and the
 * agent asks it first. It sits in the adapter, below the call cache, so its replies are stored, replayed and
 * resumed as every call's.
 */
export interface SimulatedProtocol {
  /** The namespace of the profile keys it reads: `ape` reads `sim/x?ape.refuse=0.1`. */
  readonly namespace: string;
  /**
   * Checks the profile's keys of its namespace (`traits`, keyed by the whole key, `ape.refuse`, with their raw
   * values), when the agent is built: a key it does not take, or a value out of range, throws an InputError that
   * names the agent, the key and the forms it takes.
   */
  checkTraits(modelName: string, traits: Readonly<Record<string, string>>): void;
  /**
   * The agent's reply to one of the protocol's requests, drawn from `random` (seeded by the request's seed, so a
   * request always gets the same reply); undefined for any other request, which the agent answers as PMIYC's.
   */
  reply(request: GenerateRequest, profile: SimProfile, random: Random): string | undefined;
}

/**
 * Checks a profile's protocol keys against the protocol its agent serves: the keys of that protocol's namespace
 * go to its own check, and a key of any other namespace (another protocol's, or a typing slip) is refused, as an
 * unknown parameter always was.
 */
export function checkProtocolTraits(modelName: string, profile: SimProfile, protocol: SimulatedProtocol | undefined): void {
  const traits = profile.protocolTraits ?? {};
  const own = protocol === undefined ? [] : Object.keys(traits).filter((key) => key.startsWith(`${protocol.namespace}.`));
  const stray = Object.keys(traits).find((key) => !own.includes(key));
  if (stray !== undefined) {
    const namespace = stray.slice(0, stray.indexOf('.'));
    const served = protocol === undefined ? "this run's protocol (PMIYC's) reads none" : `this run reads only ${protocol.namespace}.<...> keys`;
    throw new InputError(
      `${modelName}: unknown parameter "${stray}": a key <protocol>.<trait> plants a trait for that protocol's simulated agents, and ${served}; drop it, or run the ${namespace} protocol (pmiyc run --protocol ${namespace})`,
    );
  }
  if (protocol !== undefined) protocol.checkTraits(modelName, Object.fromEntries(own.map((key) => [key, traits[key]!])));
}
