import type { Role } from '../domain/roles.js';
import type { DesignedAgent } from '../metrics/role-coverage.js';
import { type RunConfig, tournamentDesignOf } from '../studies/run-config.js';

/**
 * The agents that runs' stored designs ask for, per setting and role (`pmiyc run`'s persuaders and
 * persuadees, prompt variants included as their agents; a people study's `person/*`). A run that
 * stored no design (an import, a study of another kind) asks for none: its conversations name its models.
 */
export function designedAgentsOf(configs: ReadonlyArray<RunConfig | undefined>): DesignedAgent[] {
  const agents = new Map<string, DesignedAgent>();
  for (const config of configs) {
    const design = config && tournamentDesignOf(config);
    if (!design) continue;
    const roles: Array<[Role, readonly string[]]> = [
      ['persuader', design.persuaders],
      ['persuadee', design.persuadees],
    ];
    for (const setting of design.settings) {
      for (const [role, names] of roles) for (const agent of names) agents.set(`${setting}\u0000${role}\u0000${agent}`, { setting, role, agent });
    }
  }
  return [...agents.values()];
}
