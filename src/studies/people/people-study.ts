import { type AgreementScore, isAgreementScore } from '../../domain/agreement-score.js';
import type { ConversationOutcome, ConversationSpec, Turn } from '../../domain/conversation.js';
import { type ConversationRecord, toConversationRecord } from '../../domain/conversation-record.js';
import { jsonPrefix } from '../../domain/describe-value.js';
import { personAgentName } from '../../domain/person-agent.js';
import { printableText } from '../../domain/printable-text.js';
import { runConversation } from '../../engine/run-conversation.js';
import type { CallCache } from '../../models/call-cache.js';
import type { ChatModel } from '../../models/chat-model.js';
import { decorate } from '../../models/decorate.js';
import { cacheCalls } from '../../models/wrappers/with-call-cache.js';
import type { ExperimentText } from './experiment-text.js';
import { MAX_MESSAGE_CHARS, messageOptional, nextTurnKind, type ParticipantView, participantView } from './participant-view.js';
import { claimOfParticipant, type PeopleDesign, participantSpec } from './people-design.js';
import type { ParticipantRow, PeopleRecords } from './people-results.js';
import { PersonModel } from './person-model.js';

/** Stored in place of an empty message where one is optional (the opening, the final decision): said, not invented. */
export const NO_COMMENT = '(The participant gave their agreement without a comment.)';

export interface PeopleStudyOptions {
  readonly runId: number;
  readonly runName: string;
  readonly design: PeopleDesign;
  readonly text: ExperimentText;
  readonly records: PeopleRecords & { saveConversation(runId: number, record: ConversationRecord): Promise<void> };
  /** The opponent, behind the run session's call cache and gate. */
  readonly opponent: ChatModel;
  /** The run's call cache scoped to this run alone: a person's answers are replayed for them in this run, never elsewhere. */
  readonly personCache: CallCache;
  readonly now: () => Date;
  /** A fresh pseudonymous id (`p-` and random hex); never derived from a token. */
  readonly newParticipantId: () => string;
  /** One line for the researcher's terminal: ids and statuses only, never participant text. */
  readonly tell?: (line: string) => void;
}

/** A participant's answer to the turn they are asked for, as their page sends it (not trusted yet). */
export interface PersonAnswer {
  readonly turnIndex: unknown;
  readonly message: unknown;
  readonly score: unknown;
}

export type AnswerResult = { readonly ok: true } | { readonly ok: false; readonly status: 400 | 409; readonly problem: string };

interface Live {
  row: ParticipantRow;
  turns: Turn[];
  person?: PersonModel;
  controller?: AbortController;
  done?: Promise<void>;
}

/**
 * A people study while its server runs: each participant's conversation is the engine's own
 * (Algorithm 1, `runConversation`), with the person as a `PersonModel` behind the run's call cache
 * and the opponent behind the session's. Everything is stored as it happens: the participant's
 * progress in the participants table, each answer as a call, the conversation record when it ends.
 * A restart replays a participant's stored calls and asks them for the next turn where they stopped.
 */
export class PeopleStudy {
  private readonly live = new Map<string, Live>();
  private readonly byToken = new Map<string, Live>();
  private stopping = false;

  constructor(private readonly options: PeopleStudyOptions) {
    for (const row of options.records.participantRows(options.runId)) this.track(row);
  }

  private track(row: ParticipantRow): Live {
    const live: Live = { row, turns: [] };
    this.live.set(row.id, live);
    this.byToken.set(row.tokenHash, live);
    return live;
  }

  /** Continues every conversation that had begun: stored calls replay, then the person is asked where they stopped. */
  resumeAll(): number {
    let resumed = 0;
    for (const live of this.live.values()) {
      if (live.row.status === 'consented' || live.row.status === 'conversing') {
        this.start(live);
        resumed += 1;
      }
    }
    return resumed;
  }

  get participantCount(): number {
    return this.live.size;
  }

  /** The participant whose link's token has this hash; undefined for any other. */
  participantOf(tokenHash: string): string | undefined {
    return this.byToken.get(tokenHash)?.row.id;
  }

  /** A new participant under a link whose token hashes to `tokenHash`, with the next claim of the design. */
  invite(tokenHash: string): ParticipantRow {
    let id = this.options.newParticipantId();
    while (this.live.has(id)) id = this.options.newParticipantId();
    const order = this.live.size;
    const claim = claimOfParticipant(this.options.design.claims, order);
    const row: ParticipantRow = {
      id,
      role: this.options.design.role,
      status: 'invited',
      conversationId: null,
      followUp: null,
      tokenHash,
      claimIndex: this.options.design.claims.indexOf(claim),
      order,
      invitedAt: this.isoNow(),
      consentedAt: null,
      finishedAt: null,
      endedBecause: null,
    };
    this.options.records.invite(this.options.runId, row);
    return this.track(row).row;
  }

  view(participantId: string): ParticipantView {
    const live = this.mustFind(participantId);
    this.expireIfLate(live);
    const since = live.person?.waitingSinceMs;
    const nowMs = this.nowMs();
    return participantView({
      row: live.row,
      text: this.options.text,
      claim: this.claimOf(live.row).claim,
      turns: live.turns,
      totalTurns: this.options.design.turns,
      waitedMs: since === undefined ? undefined : nowMs - since,
      nowMs,
    });
  }

  consent(participantId: string): AnswerResult {
    const live = this.mustFind(participantId);
    if (live.row.status !== 'invited') return { ok: true };
    if (this.stopping) return { ok: false, status: 409, problem: 'the study is stopping: come back through the same link later' };
    this.change(live, { status: 'consented', consentedAt: this.isoNow() });
    this.start(live);
    return { ok: true };
  }

  /** Takes the participant's answer to the turn they are asked for, or says why not (a stale or second answer is refused). */
  answer(participantId: string, answer: PersonAnswer): AnswerResult {
    const live = this.mustFind(participantId);
    this.expireIfLate(live);
    const person = live.person;
    if (live.row.status === 'withdrawn') return { ok: false, status: 409, problem: 'this conversation has ended' };
    if (!person || person.waitingSinceMs === undefined) return { ok: false, status: 409, problem: 'no answer is asked for now: wait for the other side' };
    const turnIndex = live.turns.length + 1;
    if (answer.turnIndex !== turnIndex)
      return { ok: false, status: 409, problem: `turn ${jsonPrefix(answer.turnIndex)} is not the turn asked for (${turnIndex})` };
    if (typeof answer.score !== 'number' || !isAgreementScore(answer.score)) return { ok: false, status: 400, problem: 'give an agreement from 1 to 5' };
    if (typeof answer.message !== 'string') return { ok: false, status: 400, problem: 'the message must be text' };
    const message = answer.message.replace(/\r\n?/g, '\n').trim();
    // Terminal escapes and control characters would act on whoever prints the record later (show, export to a terminal).
    if (printableText(message) !== message) return { ok: false, status: 400, problem: 'the message holds control characters: write plain text' };
    const kind = nextTurnKind(live.turns, this.options.design.turns);
    const minChars = messageOptional(kind) ? 0 : this.options.text.minMessageChars;
    if ([...message].length < minChars) return { ok: false, status: 400, problem: `write at least ${minChars} characters` };
    if ([...message].length > MAX_MESSAGE_CHARS) return { ok: false, status: 400, problem: `write at most ${MAX_MESSAGE_CHARS} characters` };
    person.answer(message === '' ? NO_COMMENT : message, answer.score as AgreementScore);
    return { ok: true };
  }

  /** The follow-up agreement, once, after the experiment's delay. */
  followUp(participantId: string, score: unknown): AnswerResult {
    const live = this.mustFind(participantId);
    const view = this.view(participantId);
    if (!view.followUp) return { ok: false, status: 409, problem: 'there is no follow-up to give now' };
    if (view.followUp.given) return { ok: false, status: 409, problem: 'the follow-up was given already' };
    if (view.followUp.opensInMs > 0) return { ok: false, status: 409, problem: 'the follow-up is not open yet' };
    if (typeof score !== 'number' || !isAgreementScore(score)) return { ok: false, status: 400, problem: 'give an agreement from 1 to 5' };
    const followUp = { score, at: this.isoNow() };
    this.options.records.recordFollowUp(this.options.runId, live.row.id, followUp);
    live.row = { ...live.row, followUp };
    return { ok: true };
  }

  /** The participant leaves: their conversation stops and is not stored as completed. */
  withdraw(participantId: string, because = 'left'): AnswerResult {
    const live = this.mustFind(participantId);
    if (live.row.status === 'finished' || live.row.status === 'withdrawn') return { ok: true };
    this.change(live, { status: 'withdrawn', endedBecause: because });
    live.controller?.abort(new Error(`participant ${participantId} ${because}`));
    this.options.tell?.(`participant ${participantId}: withdrawn (${because})`);
    return { ok: true };
  }

  /** Ends the paths of participants whose turn has waited past the time limit. */
  sweep(): void {
    for (const live of this.live.values()) this.expireIfLate(live);
  }

  /** Participants and where they are, for the admin page: ids, statuses and counts, no participant text. */
  overview(): Array<ParticipantRow & { readonly turnsTaken: number }> {
    return [...this.live.values()].map((live) => ({ ...live.row, turnsTaken: live.turns.length }));
  }

  /** Stops every conversation (a participant's page then waits for the restart) and waits for them to settle. */
  async stop(): Promise<void> {
    this.stopping = true;
    for (const live of this.live.values()) live.controller?.abort(new Error('the study server stopped'));
    await Promise.all([...this.live.values()].map((live) => live.done));
  }

  private expireIfLate(live: Live): void {
    const since = live.person?.waitingSinceMs;
    if (since === undefined || live.row.status === 'withdrawn') return;
    if (this.nowMs() - since > this.options.text.turnTimeLimitMinutes * 60_000) this.withdraw(live.row.id, 'time limit');
  }

  private start(live: Live): void {
    const { design, runName } = this.options;
    const agent = personAgentName(live.row.id);
    const person = new PersonModel(agent, this.nowMs);
    // The identity names the run: a person's answers are replayed only for them, and only in this run.
    const personCalls = decorate(person, [cacheCalls(this.options.personCache, { modelIdentity: `${agent} in run ${runName}`, now: this.nowMs })]);
    const controller = new AbortController();
    const spec = participantSpec(design, live.row.id, this.claimOf(live.row));
    live.person = person;
    live.controller = controller;
    live.turns = [];
    const persuader = design.role === 'persuader' ? personCalls : this.options.opponent;
    const persuadee = design.role === 'persuadee' ? personCalls : this.options.opponent;
    live.done = runConversation({
      spec,
      persuader,
      persuadee,
      sampling: design.sampling,
      abortSignal: controller.signal,
      onTurn: (turn) => {
        live.turns.push(turn);
        if (live.row.status === 'consented') this.change(live, { status: 'conversing' });
      },
    }).then(
      (outcome) => this.finish(live, spec, outcome, { persuader: persuader.simulated, persuadee: persuadee.simulated }),
      (error: unknown) => {
        if (!controller.signal.aborted) this.options.tell?.(`participant ${live.row.id}: the conversation stopped on an error: ${String(error)}`);
      },
    );
  }

  private async finish(live: Live, spec: ConversationSpec, outcome: ConversationOutcome, simulated: { persuader: boolean; persuadee: boolean }): Promise<void> {
    if (live.row.status === 'withdrawn') return;
    const record = toConversationRecord(this.options.runName, spec, outcome, simulated);
    await this.options.records.saveConversation(this.options.runId, record);
    if (outcome.status === 'completed') {
      this.change(live, { status: 'finished', conversationId: record.conversationId, finishedAt: this.isoNow() });
      this.options.tell?.(`participant ${live.row.id}: finished (conversation ${record.conversationId})`);
    } else {
      this.change(live, { status: 'withdrawn', conversationId: record.conversationId, endedBecause: 'model failed' });
      this.options.tell?.(`participant ${live.row.id}: the opponent gave no usable reply; stored as a failed conversation`);
    }
  }

  private change(live: Live, change: Parameters<PeopleRecords['update']>[2]): void {
    this.options.records.update(this.options.runId, live.row.id, change);
    live.row = { ...live.row, ...change };
  }

  private claimOf(row: ParticipantRow) {
    return this.options.design.claims[row.claimIndex]!;
  }

  private mustFind(participantId: string): Live {
    const live = this.live.get(participantId);
    if (!live) throw new RangeError(`no participant ${participantId}`);
    return live;
  }

  private isoNow(): string {
    return this.options.now().toISOString();
  }

  private readonly nowMs = () => this.options.now().getTime();
}
