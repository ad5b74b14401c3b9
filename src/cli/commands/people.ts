import { resolve } from 'node:path';
import { InputError } from '../../domain/errors/input-error.js';
import { loadClaims } from '../../io/inputs/load-claims.js';
import { loadConfig } from '../../io/inputs/load-config.js';
import { untilStopped } from '../../io/process/graceful-stop.js';
import { readTextFile } from '../../io/read-text-file.js';
import { openStore } from '../../store/result-store.js';
import { type ExperimentText, parseExperimentText, starterExperiment } from '../../studies/people/experiment-text.js';
import { openPeopleStudy } from '../../studies/people/people-session.js';
import { TOURNAMENT_DEFAULTS } from '../../studies/tournament/tournament-design.js';
import { PeopleServer } from '../../web/people/people-server.js';
import { hashToken, newLinkToken, newParticipantId } from '../../web/server/link-tokens.js';
import { LOCAL_HOST } from '../../web/server/local-http.js';
import { aboutRun, type CliContext, dataOf, type RunSignals, sessionWorldOf } from '../terminal.js';

export interface PeopleServeOptions {
  readonly run: string;
  readonly role: 'persuadee' | 'persuader';
  readonly opponent: string;
  readonly claims: string;
  readonly dataDir?: string;
  readonly limit?: number;
  readonly participants?: number;
  readonly open?: number;
  readonly turns: number;
  readonly experiment?: string;
  readonly compare?: string[];
  readonly host: string;
  /** Whether --host was said on the command line (binding beyond loopback must be). */
  readonly hostGiven: boolean;
  readonly port: number;
  readonly publicUrl?: string;
  readonly seed: number;
  readonly store: string;
  readonly config?: string;
  /** False: --no-check-models (serve without first checking that the models answer). */
  readonly checkModels?: boolean;
}

const LOOPBACK = new Set([LOCAL_HOST, '::1', 'localhost']);

function checkOptions(options: PeopleServeOptions): void {
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
  if (options.publicUrl !== undefined) {
    let url: URL;
    try {
      url = new URL(options.publicUrl);
    } catch {
      throw new InputError(`--public-url must be an address such as https://study.example.org/, got "${options.publicUrl}"`);
    }
    if (url.protocol !== 'https:' && url.protocol !== 'http:') throw new InputError('--public-url must start with https:// (or http:// for a test)');
  }
}

async function experimentOf(path: string | undefined, context: CliContext): Promise<ExperimentText> {
  if (path === undefined) {
    context.stderr.write(
      "pmiyc: no --experiment file: serving pmiyc's starter text, which is a placeholder; pmiyc init writes it to edit (people-experiment.yaml)\n",
    );
    return starterExperiment();
  }
  return parseExperimentText(await readTextFile(path, `the experiment file ${path} does not exist: pmiyc init writes a starter one`), path);
}

/**
 * `pmiyc people serve`: a people study's server until Ctrl-C (exit 130); the same --run continues it
 * with every link as it was. Links are printed once and never stored (only their hashes are).
 */
export async function peopleServeCommand(options: PeopleServeOptions, context: CliContext, signals: RunSignals): Promise<number> {
  checkOptions(options);
  const text = await experimentOf(options.experiment, context);
  const config = await loadConfig(options.config);
  const { claims, source } = await loadClaims(
    options.claims,
    { ...(options.limit === undefined ? {} : { limit: options.limit }), ...(options.dataDir ? { dataDir: options.dataDir } : {}) },
    dataOf(context),
  );
  const openToken = options.open === undefined ? undefined : newLinkToken();
  const store = openStore(options.store, { now: context.now });
  try {
    const served = await openPeopleStudy({
      store,
      name: options.run,
      role: options.role,
      opponent: options.opponent,
      compare: options.compare ?? [],
      claims,
      claimSource: source,
      turns: options.turns,
      sampling: { temperature: TOURNAMENT_DEFAULTS.temperature, maxOutputTokens: TOURNAMENT_DEFAULTS.maxTokens, maxAttempts: TOURNAMENT_DEFAULTS.maxAttempts },
      seed: options.seed,
      text,
      ...(openToken && options.open !== undefined ? { openLink: { tokenHash: hashToken(openToken), capacity: options.open } } : {}),
      config,
      ...(options.checkModels === false ? { checkModels: false } : {}),
      about: aboutRun(context, undefined, options.config === undefined ? undefined : resolve(options.config)),
      world: sessionWorldOf(context, signals, store),
      newParticipantId,
    });
    const adminToken = newLinkToken();
    let server: PeopleServer;
    try {
      server = await PeopleServer.start({
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
    const out = (line: string) => context.stdout.write(`${line}\n`);
    const exposed = LOOPBACK.has(options.host) ? 'this machine only' : `every network that reaches ${options.host}`;
    out(
      `People study ${served.run.name} in ${store.path} (${served.resumed ? 'continued' : 'new'}): people play the ${served.role}, against ${options.opponent}.`,
    );
    out(
      `Serving at ${server.url}, reachable from ${exposed}${options.publicUrl ? `; links use ${options.publicUrl}` : ''}. It serves only the pages of these links; the store, the config and keys stay here.`,
    );
    if (options.participants !== undefined) {
      const fresh: string[] = [];
      while (served.study.participantCount < options.participants) {
        const token = newLinkToken();
        const row = served.study.invite(hashToken(token));
        fresh.push(`  ${row.id}  ${server.linkOf(token)}`);
      }
      if (served.resumed && served.study.participantCount > fresh.length)
        out(`The ${served.study.participantCount - fresh.length} links printed before still work (only their hashes are stored).`);
      if (fresh.length > 0) out(`Participant links (one each; send each to one person; not stored, copy them now):\n${fresh.join('\n')}`);
    } else if (openToken && served.openLink?.tokenHash === hashToken(openToken)) {
      out(`Open link (admits at most ${served.openLink.capacity}; not stored, copy it now): ${server.baseUrl}join/${openToken}`);
    } else if (served.openLink) {
      out(`The open link printed before still works (admits at most ${served.openLink.capacity}).`);
    }
    out(`Admin page (this session only): ${server.baseUrl}admin/${adminToken}`);
    out('Press Ctrl-C to stop; pmiyc people serve with the same --run continues.');
    await untilStopped(signals.stop);
    await server.close();
    const ending = await served.end();
    const counts: Record<string, number> = {};
    for (const row of served.study.overview()) counts[row.status] = (counts[row.status] ?? 0) + 1;
    out(
      `Stopped. Participants: ${
        Object.entries(counts)
          .map(([status, count]) => `${count} ${status}`)
          .join(', ') || 'none'
      }. Export with pmiyc export --run ${served.run.name}.`,
    );
    return ending.exitCode;
  } finally {
    store.close();
  }
}
