import type { Setting } from '../domain/conversation.js';
import type { Role } from '../domain/roles.js';
import type { DesignedAgent } from '../metrics/role-coverage.js';

const SETTINGS: readonly Setting[] = ['single', 'multi'];

const namesIn = (list: unknown): string[] => (Array.isArray(list) ? list.filter((entry): entry is string => typeof entry === 'string') : []);

/**
 * The agents that runs' stored designs ask for, per setting and role (`pmiyc run`'s persuaders and
 * persuadees, prompt variants included as their agents; a people study's `person/*`). A run that
 * stored no design (an import, a study of another kind) asks for none: its conversations name its models.
 */
export function designedAgentsOf(configs: readonly unknown[]): DesignedAgent[] {
  const agents = new Map<string, DesignedAgent>();
  for (const config of configs) {
    const design = (config as { design?: { persuaders?: unknown; persuadees?: unknown; settings?: unknown } } | null | undefined)?.design;
    if (!design) continue;
    const settings = namesIn(design.settings).filter((setting): setting is Setting => (SETTINGS as readonly string[]).includes(setting));
    const roles: Array<[Role, string[]]> = [
      ['persuader', namesIn(design.persuaders)],
      ['persuadee', namesIn(design.persuadees)],
    ];
    for (const setting of settings) {
      for (const [role, names] of roles) for (const agent of names) agents.set(`${setting}\u0000${role}\u0000${agent}`, { setting, role, agent });
    }
  }
  return [...agents.values()];
}
