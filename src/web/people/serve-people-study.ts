import type { Claim } from '../../domain/claim.js';
import { InputError } from '../../domain/errors/input-error.js';
import type { PeopleServeStart, ShownLinks } from '../../report/texts/people-serve-text.js';
import type { RunAbout } from '../../runner/run-records.js';
import type { SessionWorld } from '../../runner/run-session.js';
import type { ExperimentText } from '../../studies/people/experiment-text.js';
import type { ParticipantRow, PersonRole } from '../../studies/people/people-results.js';
import { openPeopleStudy, type PeopleStudyInput, type ServedPeopleStudy } from '../../studies/people/people-session.js';
import { TOURNAMENT_DEFAULTS } from '../../studies/tournament/tournament-design.js';
import { newParticipantId } from '../server/link-tokens.js';
import { LOCAL_HOST } from '../server/local-http.js';
import { inviteParticipant, type MintedLink, mintLink } from './people-links.js';
import { PeopleServer } from './people-server.js';

/** How a people study is served (`pmiyc people serve`'s options, files already read). */
export interface PeopleServeOptions {
  /** The study's run: a new one, or the one to continue. */
  readonly run: string;
  readonly role: PersonRole;
  readonly opponent: string;
  readonly compare?: readonly string[];
  readonly turns: number;
  /** A link for each of N participants; a restart adds links up to N. Exactly one of this and `open`. */
  readonly participants?: number;
  /** One open link that admits at most N participants. */
  readonly open?: number;
  readonly host: string;
  /** Whether the host was said explicitly (binding beyond loopback must be). */
  readonly hostGiven: boolean;
  readonly port: number;
  readonly publicUrl?: string;
  readonly seed: number;
  /** False: serve without first checking that the models answer. */
  readonly checkModels?: boolean;
}

/** What a study is served from: the store, the texts, the config and claims as read, and the session's world. */
export interface PeopleServeInputs {
  readonly store: PeopleStudyInput['store'] & { readonly path: string };
  readonly text: ExperimentText;
  readonly config: PeopleStudyInput['config'];
  readonly claims: readonly Claim[];
  readonly claimSource: string;
  readonly about: RunAbout;
  readonly world: SessionWorld;
  /** Participant ids (tests pass their own; by default `p-` and random hex). */
  readonly newParticipantId?: () => string;
}

export interface ServingPeopleStudy {
  /** What the start-up lines say (report/texts/people-serve-text.ts): the links of this session among it, shown once. */
  readonly start: PeopleServeStart;
  /** Closes the server, stops every conversation and ends the session (the run is interrupted: the same options continue it). */
  stop(): Promise<{ readonly exitCode: number; readonly participants: readonly ParticipantRow[] }>;
}

const LOOPBACK = new Set([LOCAL_HOST, '::1', 'localhost']);

/** Refuses options that cannot serve a study, with what to say instead (an `InputError`, exit 2). Pure: call it before reading any file. */
export function checkPeopleServeOptions(options: PeopleServeOptions): void {
  if ((options.participants === undefined) === (options.open === undefined)) {
    throw new InputError('say how participants come: --participants N (a link each) or --open N (one open link for at most N), not both');
  }
  if (options.turns % 2 === 0) throw new InputError(`--turns must be odd (the persuadee opens and ends), got ${options.turns}`);
  if (!LOOPBACK.has(options.host) && !options.hostGiven) throw new InputError('binding beyond this machine needs --host said explicitly');
  if (!LOOPBACK.has(options.host) && options.publicUrl === undefined) {
    throw new InputError(
      `--host ${options.host} also needs --public-url (the address participants open, e.g. http://192.0.2.7:${options.port}/): links are made from it, and only its host is accepted besides this machine's`,
    );
  }
  if (options.publicUrl !== undefined) checkPublicUrl(options.publicUrl);
}

function checkPublicUrl(publicUrl: string): void {
  let url: URL;
  try {
    url = new URL(publicUrl);
  } catch {
    throw new InputError(`--public-url must be an address such as https://study.example.org/, got "${publicUrl}"`);
  }
  if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InputError('--public-url must start with https:// (or http:// for a test)');
}

/**
 * Serves a people study until `stop()`: opens (or continues) its run and session, starts its server and
 * makes this session's links (participant links up to `participants`, a new open link, the admin page).
 * Links are never stored, only their hashes; the same options continue the study with every link as it was.
 */
export async function servePeopleStudy(options: PeopleServeOptions, inputs: PeopleServeInputs): Promise<ServingPeopleStudy> {
  checkPeopleServeOptions(options);
  const openLink = options.open === undefined ? undefined : mintLink('join');
  const served = await openPeopleStudy({
    store: inputs.store,
    name: options.run,
    role: options.role,
    opponent: options.opponent,
    compare: options.compare ?? [],
    claims: inputs.claims,
    claimSource: inputs.claimSource,
    turns: options.turns,
    sampling: { temperature: TOURNAMENT_DEFAULTS.temperature, maxOutputTokens: TOURNAMENT_DEFAULTS.maxTokens, maxAttempts: TOURNAMENT_DEFAULTS.maxAttempts },
    seed: options.seed,
    text: inputs.text,
    ...(openLink && options.open !== undefined ? { openLink: { tokenHash: openLink.tokenHash, capacity: options.open } } : {}),
    config: inputs.config,
    ...(options.checkModels === false ? { checkModels: false } : {}),
    about: inputs.about,
    world: inputs.world,
    newParticipantId: inputs.newParticipantId ?? newParticipantId,
  });
  const admin = mintLink('admin');
  const server = await startServer(options, served, admin.token);
  const start: PeopleServeStart = {
    runName: served.run.name,
    storePath: inputs.store.path,
    resumed: served.resumed,
    role: served.role,
    opponent: options.opponent,
    url: server.url,
    exposedHost: LOOPBACK.has(options.host) ? undefined : options.host,
    publicUrl: options.publicUrl,
    links: shownLinks(options, served, server, openLink),
    adminLink: server.linkOf(admin.path),
  };
  return {
    start,
    async stop() {
      await server.close();
      const ending = await served.end();
      return { exitCode: ending.exitCode, participants: served.study.overview() };
    },
  };
}

/** The study's server; a server that cannot start (its port taken, say) ends the session it was to serve. */
async function startServer(options: PeopleServeOptions, served: ServedPeopleStudy, adminToken: string): Promise<PeopleServer> {
  try {
    return await PeopleServer.start({
      study: served.study,
      port: options.port,
      host: options.host,
      ...(options.publicUrl ? { publicUrl: options.publicUrl } : {}),
      ...(served.openLink ? { openLink: served.openLink } : {}),
      adminToken,
    });
  } catch (error) {
    await served.end();
    throw error;
  }
}

/** This session's links: new participants up to `--participants` (those of earlier sessions still work), or the open link, new or kept from before. */
function shownLinks(options: PeopleServeOptions, served: ServedPeopleStudy, server: PeopleServer, openLink: MintedLink | undefined): ShownLinks {
  if (options.participants !== undefined) {
    const fresh: { participantId: string; link: string }[] = [];
    while (served.study.participantCount < options.participants) {
      const { participantId, path } = inviteParticipant(served.study);
      fresh.push({ participantId, link: server.linkOf(path) });
    }
    return { kind: 'participants', fresh, printedBefore: served.resumed ? served.study.participantCount - fresh.length : 0 };
  }
  if (openLink && served.openLink?.tokenHash === openLink.tokenHash) {
    return { kind: 'new open link', link: server.linkOf(openLink.path), capacity: served.openLink.capacity };
  }
  return served.openLink ? { kind: 'open link printed before', capacity: served.openLink.capacity } : { kind: 'none' };
}
