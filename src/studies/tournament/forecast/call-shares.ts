import { MULTI_TURN_TURNS, type Setting, SINGLE_TURN_TURNS } from '../../../domain/conversation.js';
import type { AgentRoster } from '../agents.js';
import type { TournamentDesign } from '../plan.js';

/**
 * The share of a tournament's calls that each model makes (the models behind its agents), for the
 * ETA of a run whose models are held back by limits of their own: a model with a third of the calls
 * and a slow limiter ends the run later than the run's overall rate says. Each conversation's turns
 * are split as the engine asks them: the persuadee the opening, every reply and the final answer,
 * the persuader every argument (a conversation of T turns: (T + 1) / 2 and (T - 1) / 2). Early stops
 * and shared openings move the true shares a little; the ETA needs no more than this.
 */
export function callSharesOf(
  design: Pick<TournamentDesign, 'persuaders' | 'persuadees' | 'settings' | 'multiTurns'>,
  agents: Pick<AgentRoster, 'agent'>,
): Map<string, number> {
  const calls = new Map<string, number>();
  const add = (agent: string, count: number) => {
    const { model } = agents.agent(agent);
    calls.set(model, (calls.get(model) ?? 0) + count);
  };
  const turnsOf = (setting: Setting) => (setting === 'single' ? SINGLE_TURN_TURNS : (design.multiTurns ?? MULTI_TURN_TURNS));
  for (const setting of design.settings) {
    const turns = turnsOf(setting);
    for (const persuadee of design.persuadees) {
      for (const persuader of design.persuaders) {
        add(persuadee, (turns + 1) / 2);
        add(persuader, (turns - 1) / 2);
      }
    }
  }
  let total = 0;
  for (const count of calls.values()) total += count;
  return new Map([...calls].map(([model, count]) => [model, total > 0 ? count / total : 0]));
}
