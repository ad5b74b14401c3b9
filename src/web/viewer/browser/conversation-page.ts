import type { Attempt, Turn } from '../../../domain/conversation.js';
import type { ConversationRecord, ReadingDifference } from '../../../domain/conversation-record.js';
import type { CallDetail } from '../../../studies/tournament/tournament-browse.js';
import { byId, type Child, el } from '../../browser/dom.js';
import type { CallsAnswer, LabelsAnswer } from '../../wire/view-answers.js';
import { ConversationNotes } from './notes-panel.js';
import { trajectory } from './trajectory-chart.js';
import { disputedText, disputeNote, importedFacts } from './view-imported.js';
import { labelsNote, turnTags } from './view-labels.js';
import { badge, link, numberCell, table, td } from './view-parts.js';
import { api, crumbs, isCurrent, selectable, show } from './view-shell.js';
import { modelText, number, scoreText, signed, turnKindText } from './view-text.js';

/** Other conversations listed under a shared call; the rest are counted. */
const SHARED_SHOWN = 12;

/** Every attempt of a turn, with the stored call behind it: who made it, its latency, who shares it. */
function attemptsTable(attempts: readonly Attempt[], calls: readonly CallDetail[], run: string, imported: boolean): HTMLElement {
  const byHash = new Map(calls.map((call) => [call.callHash, call]));
  const sharedWith = (call: CallDetail | undefined): Child => {
    if (!call || call.sharedWith.length === 0) return '-';
    const shown = call.sharedWith.slice(0, SHARED_SHOWN).map((other) => [link(['conversations', other.conversationId], { run }, other.conversationId), ' ']);
    return call.sharedWith.length > SHARED_SHOWN ? [...shown, `and ${call.sharedWith.length - SHARED_SHOWN} more`] : shown;
  };
  const rows = attempts.map((attempt) => {
    const call = attempt.callHash ? byHash.get(attempt.callHash) : undefined;
    const cached = attempt.usage?.cachedInputTokens ? ` (${attempt.usage.cachedInputTokens} cached)` : '';
    const tokens = attempt.usage ? `${attempt.usage.inputTokens ?? '?'}${cached} / ${attempt.usage.outputTokens ?? '?'}` : 'not reported';
    const madeBy = call ? (call.madeByRun === run ? 'this run' : `replayed from ${call.madeByRun}`) : '-';
    const latency = call ? `${Math.round(call.latencyMs)} ms${call.retries ? `, ${call.retries} retries` : ''}` : '-';
    return el(
      'tr',
      {},
      numberCell(attempt.number),
      td(attempt.outcome + (attempt.detail ? `: ${attempt.detail}` : '')),
      numberCell(imported ? 'none (imported)' : attempt.seed),
      td(attempt.finishReason || '-'),
      numberCell(tokens),
      numberCell(attempt.costUsd === undefined ? '-' : `$${attempt.costUsd.toFixed(6)}`),
      td(el('span', { className: 'hash' }, attempt.callHash || '-')),
      td(madeBy),
      numberCell(latency),
      td(sharedWith(call)),
    );
  });
  return table(['attempt', 'outcome', 'seed', 'finish', 'tokens in / out', 'cost', 'call', 'made by', 'latency', 'shared with'], rows);
}

/** The conversation's claim, models, scores, NC and provenance. */
function conversationFacts(id: string, record: ConversationRecord, provenance: CallsAnswer): HTMLElement {
  const runName = provenance.run;
  const change = record.absoluteChange === null ? '' : ` (absolute ${signed(record.absoluteChange)})`;
  const disputed = record.imported?.disputedScores.length ? [' ', badge(disputedText(record.imported.disputedScores), 'disputed')] : '';
  return el(
    'dl',
    { className: 'facts' },
    el('dt', {}, 'persuader'),
    el('dd', {}, modelText(record.persuader, record.simulated.persuader)),
    el('dt', {}, 'persuadee'),
    el('dd', {}, modelText(record.persuadee, record.simulated.persuadee)),
    el('dt', {}, 'condition'),
    el('dd', {}, `${record.domain}, ${record.setting}-turn (${record.turnsPlanned} turns planned), repetition ${record.repetition}`),
    el('dt', {}, 'claim'),
    el('dd', {}, link(['runs', runName, 'conversations'], { domain: record.domain, claim: record.claimIndex }, `#${record.claimIndex}`), ' ', record.claim),
    record.question ? [el('dt', {}, 'question'), el('dd', {}, record.question)] : [],
    el('dt', {}, 'source'),
    el('dd', {}, `${record.origin} (${record.license})`),
    el('dt', {}, 'agreement'),
    el('dd', {}, `${scoreText(record.initialScore)} -> ${scoreText(record.finalScore)}`),
    el('dt', {}, 'NC'),
    el('dd', {}, number(record.normalizedChange) + change + (record.earlyStopped ? ', stopped early' : ''), disputed),
    el('dt', {}, "persuader's stance"),
    el('dd', {}, scoreText(record.persuaderStance)),
    el('dt', {}, 'also in'),
    el('dd', {}, provenance.otherRuns.length ? provenance.otherRuns.map((other) => [link(['conversations', id], { run: other }, other), ' ']) : 'no other run'),
    importedFacts(record),
  );
}

/** A failed conversation's reason and detail, and every attempt of the turn that failed. */
function failureSection(record: ConversationRecord, provenance: CallsAnswer): Child {
  if (record.status !== 'failed') return '';
  const attempts = record.failedAttempts;
  return el(
    'section',
    { className: 'failure', id: 'failure' },
    el('strong', {}, `Failed: ${record.failureReason}`),
    ` at turn ${record.failedTurn} (${record.failedRole})`,
    el('p', { className: 'message' }, record.failureDetail || ''),
    attempts.length
      ? [
          el('h3', {}, 'Every attempt of the failed turn'),
          attemptsTable(attempts, provenance.calls, provenance.run, Boolean(record.imported)),
          attempts.map((attempt) =>
            el(
              'details',
              {},
              el('summary', {}, `raw reply of attempt ${attempt.number}`),
              el('pre', { className: 'raw' }, attempt.raw || '(no reply: the call failed)'),
            ),
          ),
        ]
      : [],
  );
}

/** One turn of the transcript: who, what kind, the score, the message, and its raw reply and attempts. */
function turnItem(
  turn: Turn,
  record: ConversationRecord,
  provenance: CallsAnswer,
  difference: ReadingDifference | undefined,
  labels: LabelsAnswer,
  notes: ConversationNotes,
): HTMLElement {
  const here = link(['conversations', record.conversationId], { run: provenance.run, turn: turn.index }, 'link');
  here.className = 'turn-link';
  here.title = `a link to turn ${turn.index} of this conversation`;
  return el(
    'li',
    { className: turn.role + (difference ? ' disputed' : ''), 'data-turn': turn.index, id: `turn-${turn.index}` },
    el(
      'div',
      { className: 'turn-head' },
      el('strong', {}, `turn ${turn.index}: ${turn.role}`),
      here,
      el('span', {}, turnKindText(turn.kind)),
      el('span', {}, (turn.role === 'persuadee' ? 'agreement ' : 'own rating ') + scoreText(turn.score)),
      turn.attempts.length > 1 ? el('span', {}, `${turn.attempts.length - 1} re-sampled`) : '',
      difference ? badge('disputed', 'disputed') : '',
    ),
    labels.turns.length > 0
      ? turnTags(
          labels.turns.find((tags) => tags.turn === turn.index),
          labels.analysis,
        )
      : '',
    el('div', { className: 'message' }, turn.message),
    difference && record.imported ? disputeNote(difference, record.imported.labelMatch) : '',
    notes.block(turn.index, turn.role === 'persuadee'),
    el(
      'details',
      {},
      el('summary', {}, 'raw reply, attempts and calls'),
      el('pre', { className: 'raw' }, turn.raw),
      attemptsTable(turn.attempts, provenance.calls, provenance.run, Boolean(record.imported)),
    ),
  );
}

/** One conversation: its facts, the agreement chart and the transcript, every attempt and call included. */
export async function conversationPage(current: number, id: string, query: URLSearchParams): Promise<void> {
  const run = query.get('run') || '';
  const suffix = run ? `?run=${encodeURIComponent(run)}` : '';
  const study = query.get('analysis') || '';
  const labelsQuery = new URLSearchParams([...(run ? [['run', run]] : []), ...(study ? [['analysis', study]] : [])]).toString();
  const [record, provenance, labels] = await Promise.all([
    api<ConversationRecord>(`conversations/${encodeURIComponent(id)}${suffix}`),
    api<CallsAnswer>(`conversations/${encodeURIComponent(id)}/calls${suffix}`),
    api<LabelsAnswer>(`conversations/${encodeURIComponent(id)}/labels${labelsQuery ? `?${labelsQuery}` : ''}`),
  ]);
  if (!isCurrent(current)) return;
  const runName = provenance.run;
  const notes = await ConversationNotes.load(runName, id);
  if (!isCurrent(current)) return;
  const pair = { persuader: record.persuader, persuadee: record.persuadee, setting: record.setting, domain: record.domain };
  crumbs(link([], null, 'runs'), link(['runs', runName], null, runName), link(['runs', runName, 'conversations'], pair, 'conversations'), el('span', {}, id));
  const differenceAt = new Map(record.imported ? record.imported.differences.map((difference) => [difference.turn, difference]) : []);
  const turns = el(
    'ol',
    { className: 'turns' },
    record.turns.map((turn) => turnItem(turn, record, provenance, differenceAt.get(turn.index), labels, notes)),
  );
  show(
    el('h2', {}, `Conversation ${id}`, record.imported ? [' ', badge('imported', 'imported')] : ''),
    failureSection(record, provenance),
    conversationFacts(id, record, provenance),
    el('h3', {}, 'Your notes on this conversation ', link(['runs', runName, 'notes'], null, '(all notes of the run)')),
    notes.block(null),
    el('h3', {}, 'Persuadee agreement by turn'),
    trajectory(record.turns),
    el('h3', {}, 'Transcript'),
    labelsNote(labels.analysis, runName, labels.turns.length > 0),
    turns,
  );
  selectable([]);
  showTurn(query.get('turn'), record.turns.length);
}

/** A deep link's turn (`#/conversations/ID?run=RUN&turn=N`): marked and scrolled to; a turn the conversation lacks is said, not an error. */
function showTurn(asked: string | null, turns: number): void {
  if (!asked) return;
  const target = document.getElementById(`turn-${Number(asked)}`);
  if (!target || !/^[1-9][0-9]*$/.test(asked)) {
    byId('view').prepend(el('p', { className: 'note', id: 'turn-missing' }, `This conversation has no turn ${asked} (it has ${turns}).`));
    return;
  }
  target.classList.add('target');
  target.scrollIntoView({ block: 'start' });
}
