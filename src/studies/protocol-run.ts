import { InputError } from '../domain/errors/input-error.js';
import type { StudyRun } from './run-config.js';

/**
 * Refuses a protocol's run (APE, ...) where a command reads a tournament's conversations (`report`): a protocol
 * run has none, and its own report section is not written yet (docs/design/protocols.md, "Not yet"), so it is
 * named rather than reported as an empty tournament.
 */
export function refuseProtocolRun(run: StudyRun, command: string): void {
  if (run.config.kind !== 'protocol') return;
  throw new InputError(
    `run ${run.name} is a run of the ${run.config.protocol} protocol, which pmiyc ${command} does not read yet: its rates are printed when the run ends (pmiyc run --protocol ${run.config.protocol} --run ${run.name} --resume prints them again)`,
  );
}
