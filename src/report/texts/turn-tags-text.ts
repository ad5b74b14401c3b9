import { printableText } from '../../domain/printable-text.js';
import type { JudgeTags, TagItem, TurnTags } from '../../studies/analysis/turn-tags.js';
import type { TextStyle } from './dialogue-text.js';

/** An analysis study's labels of one conversation, as `pmiyc show` prints them under its turns. */
export interface ConversationLabels {
  readonly study: string;
  readonly taxonomy: string;
  /** The study's judges, first one first. */
  readonly judges: readonly string[];
  readonly simulated: readonly string[];
  readonly turns: readonly TurnTags[];
}

const judgeText = (judge: string, labels: ConversationLabels, labelOf: (model: string) => string) =>
  printableText(labels.simulated.includes(judge) && !labelOf(judge).includes('[simulated]') ? `${judge} [simulated]` : labelOf(judge));

/** Which study and judges the tags under the turns come from. */
export function labelsHeaderText(labels: ConversationLabels, labelOf: (model: string) => string, style: TextStyle): string {
  if (labels.turns.length === 0) {
    return style.dim(`Analysis study ${printableText(labels.study)} has no label of this conversation (it analysed a sample, or has not reached it yet).`);
  }
  const [first, ...others] = labels.judges.map((judge) => judgeText(judge, labels, labelOf));
  const rest = others.length > 0 ? `; also judges ${others.join(', ')} (each judge's tags on its own line)` : '';
  return style.dim(
    `Tags from analysis study ${printableText(labels.study)} (taxonomy ${printableText(labels.taxonomy)}), judge ${first}${rest}. A judge's labels are its reading, not ground truth.`,
  );
}

const items = (list: readonly TagItem[]) => list.map((item) => printableText(item.name === item.id ? item.id : `${item.name} (${item.id})`));

/** One judge's tags of a turn in words: "Logos (logos), Pathos (pathos) · unethical: Deception (deception) · refused". */
function tagsText(tags: JudgeTags, style: TextStyle): string {
  if (!tags.labelled) return style.bad(`not labelled: ${printableText(tags.problem ?? 'no usable answer')}`);
  const parts = [
    ...(tags.techniques.length > 0 ? [items(tags.techniques).join(', ')] : []),
    ...(tags.unethical.length > 0 ? [style.bad(`unethical: ${items(tags.unethical).join(', ')}`)] : []),
    ...(tags.refused ? [style.bad('refused')] : []),
    ...(tags.leftRole ? [style.bad('left its role')] : []),
  ];
  return parts.length > 0 ? parts.join(' · ') : tags.role === 'persuader' ? 'no technique' : 'in role';
}

/** The lines under a turn: its tags, one line per judge that labelled it (named when the study has several). */
export function turnTagsText(turn: TurnTags | undefined, labels: ConversationLabels, labelOf: (model: string) => string, style: TextStyle): string {
  if (!turn) return `     ${style.dim('tags: not labelled')}\n`;
  const named = labels.judges.length > 1;
  return turn.judges
    .map((tags) => `     ${style.dim(named ? `tags, ${judgeText(tags.judge, labels, labelOf)}:` : 'tags:')} ${tagsText(tags, style)}\n`)
    .join('');
}
