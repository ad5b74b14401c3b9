import { InputError } from '../domain/errors/input-error.js';
import { apeOutputs } from '../protocols/ape/outputs/ape-outputs.js';
import { lpbOutputs } from '../protocols/lpb/outputs/lpb-outputs.js';
import { persusafetyAnalysis } from '../protocols/persusafety/agreement/persusafety-analysis.js';
import { persusafetyOutputs } from '../protocols/persusafety/outputs/persusafety-outputs.js';
import { syconOutputs } from '../protocols/sycon/outputs/sycon-outputs.js';
import type { ProtocolAnalysis } from '../studies/protocol-analysis/protocol-analysis.js';
import type { ProtocolOutputs } from '../studies/protocol-outputs.js';

/**
 * The protocols beside PMIYC's that this pmiyc knows, by name (`config.protocol`): the one place their
 * readers' sides are listed. `report`, `export`, `show` and `view` are shared parts that may not import a
 * protocol; the CLI passes them `protocolOutputsOf` (docs/design/protocols.md, "What a protocol gives its readers").
 */
const PROTOCOL_OUTPUTS: Readonly<Record<string, ProtocolOutputs>> = {
  [apeOutputs.protocol]: apeOutputs,
  [lpbOutputs.protocol]: lpbOutputs,
  [persusafetyOutputs.protocol]: persusafetyOutputs,
  [syconOutputs.protocol]: syconOutputs,
};

/** The outputs of a run's protocol; a protocol this pmiyc does not know is named, with what to do. */
export function protocolOutputsOf(protocol: string): ProtocolOutputs {
  const outputs = PROTOCOL_OUTPUTS[protocol];
  if (outputs === undefined)
    throw new InputError(
      `this pmiyc does not know the ${protocol} protocol (it knows ${Object.keys(PROTOCOL_OUTPUTS).join(', ')}): the run was made by another pmiyc; upgrade pmiyc to read it`,
    );
  return outputs;
}

/** The protocols whose runs another judge may label again (`pmiyc analyze --run RUN --judge MODEL`), by name. */
const PROTOCOL_ANALYSES: Readonly<Record<string, ProtocolAnalysis>> = {
  [persusafetyAnalysis.protocol]: persusafetyAnalysis,
};

/** What another judge of a run of `protocol` is asked; a protocol with none is named, with the ones that have one. */
export function protocolAnalysisOf(protocol: string, runName: string): ProtocolAnalysis {
  const analysis = PROTOCOL_ANALYSES[protocol];
  if (analysis === undefined)
    throw new InputError(
      `run ${runName} is a run of the ${protocol} protocol, whose items pmiyc analyze cannot label again yet (it can those of ${Object.keys(PROTOCOL_ANALYSES).join(', ')} runs): report it with pmiyc report --run ${runName}`,
    );
  return analysis;
}
