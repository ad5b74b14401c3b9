import { shownText } from '../../domain/printable-text.js';
import type { ProtocolConversationView, ProtocolFact, ProtocolTurnView } from '../../studies/protocol-outputs.js';
import { formatNumber } from '../number-format.js';
import { indentMessage, type TextStyle } from './dialogue-text.js';

/** A fact's value as read: text as shown safely, whole numbers as they are, booleans as yes or no, no value as "none". */
function valueText(value: ProtocolFact['value']): string {
  if (value === null) return 'none';
  if (typeof value === 'boolean') return value ? 'yes' : 'no';
  if (typeof value === 'number') return Number.isInteger(value) ? String(value) : formatNumber(value);
  return shownText(value);
}

const factText = (fact: ProtocolFact) => `${shownText(fact.label)}: ${valueText(fact.value)}`;

/** The colour of a role's name: the persuader's and persuadee's as in a tournament's conversation, any other role plain. */
function roleStyle(role: string, style: TextStyle): (text: string) => string {
  if (role === 'persuader') return style.persuader;
  if (role === 'persuadee') return style.persuadee;
  return (text) => text;
}

/** "  3  persuader · turn 2 · class: attempt · degree read: 1", then the message indented under it. */
function turnText(turn: ProtocolTurnView, style: TextStyle): string {
  const marks = turn.marks.map((mark) => style.bold(factText(mark)));
  const head = [`${String(turn.index).padStart(3)}  ${roleStyle(turn.role, style)(shownText(turn.role))}`, `turn ${turn.turn}`, ...marks].join(' · ');
  return `${head}\n${indentMessage(shownText(turn.text))}\n`;
}

/**
 * `pmiyc show` of a protocol run's item (APE's conversation, ...), from the protocol's generic view: the item
 * and its run, the title and the facts of its plan, who took part (a simulated model labelled as such by
 * `labelOf`), each message with what the protocol read of it, then what the conversation came to. Every text
 * from a model or a file is shown printable (no terminal escapes) and in the order it was written.
 */
export function protocolConversationText(
  view: ProtocolConversationView,
  where: { readonly run: string; readonly protocol: string },
  labelOf: (model: string) => string,
  style: TextStyle,
): string {
  const participants = view.participants.map(
    (participant) => `${shownText(participant.role)}: ${roleStyle(participant.role, style)(shownText(labelOf(participant.model)))}`,
  );
  return [
    `${style.dim(`${shownText(view.itemKey)} · run ${shownText(where.run)} · ${shownText(where.protocol)} protocol`)}\n`,
    `${style.bold(shownText(view.title))}\n`,
    ...view.facts.map((fact) => `${factText(fact)}\n`),
    '\n',
    ...participants.map((line) => `${line}\n`),
    '\n',
    ...view.turns.map((turn) => `${turnText(turn, style)}\n`),
    `${style.good(`Outcome: ${view.outcome.map(factText).join(' · ')}`)}\n`,
  ].join('');
}
