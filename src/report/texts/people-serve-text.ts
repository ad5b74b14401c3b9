import type { PersonRole } from '../../studies/people/people-results.js';

/** What `pmiyc people serve` says on stderr when no --experiment file is given. */
export const STARTER_EXPERIMENT_NOTE =
  "pmiyc: no --experiment file: serving pmiyc's starter text, which is a placeholder; pmiyc init writes it to edit (people-experiment.yaml)";

/** The links a session of the server shows once (none of them is stored: only their hashes are). */
export type ShownLinks =
  | { readonly kind: 'participants'; readonly fresh: readonly { readonly participantId: string; readonly link: string }[]; readonly printedBefore: number }
  | { readonly kind: 'new open link'; readonly link: string; readonly capacity: number }
  | { readonly kind: 'open link printed before'; readonly capacity: number }
  | { readonly kind: 'none' };

/** What a people study's server started with, as its first lines say it. */
export interface PeopleServeStart {
  readonly runName: string;
  readonly storePath: string;
  readonly resumed: boolean;
  readonly role: PersonRole;
  readonly opponent: string;
  /** Where the server listens. */
  readonly url: string;
  /** The address it is bound to when that is beyond this machine (--host), else undefined. */
  readonly exposedHost: string | undefined;
  readonly publicUrl: string | undefined;
  readonly links: ShownLinks;
  readonly adminLink: string;
}

/** The lines `pmiyc people serve` prints once its server is up: the study, where it is served and to whom, the links, how to stop. */
export function peopleServeStartLines(start: PeopleServeStart): string[] {
  const exposed = start.exposedHost === undefined ? 'this machine only' : `every network that reaches ${start.exposedHost}`;
  return [
    `People study ${start.runName} in ${start.storePath} (${start.resumed ? 'continued' : 'new'}): people play the ${start.role}, against ${start.opponent}.`,
    `Serving at ${start.url}, reachable from ${exposed}${start.publicUrl ? `; links use ${start.publicUrl}` : ''}. It serves only the pages of these links; the store, the config and keys stay here.`,
    ...shownLinksLines(start.links),
    `Admin page (this session only): ${start.adminLink}`,
    'Press Ctrl-C to stop; pmiyc people serve with the same --run continues.',
  ];
}

function shownLinksLines(links: ShownLinks): string[] {
  switch (links.kind) {
    case 'participants':
      return [
        ...(links.printedBefore > 0 ? [`The ${links.printedBefore} links printed before still work (only their hashes are stored).`] : []),
        ...(links.fresh.length > 0
          ? [
              `Participant links (one each; send each to one person; not stored, copy them now):\n${links.fresh.map(({ participantId, link }) => `  ${participantId}  ${link}`).join('\n')}`,
            ]
          : []),
      ];
    case 'new open link':
      return [`Open link (admits at most ${links.capacity}; not stored, copy it now): ${links.link}`];
    case 'open link printed before':
      return [`The open link printed before still works (admits at most ${links.capacity}).`];
    case 'none':
      return [];
  }
}

/** The line `pmiyc people serve` ends with: how many participants are in each state, and how to export the study. */
export function peopleServeClosingLine(participants: readonly { readonly status: string }[], runName: string): string {
  const counts = new Map<string, number>();
  for (const { status } of participants) counts.set(status, (counts.get(status) ?? 0) + 1);
  const tally = [...counts].map(([status, count]) => `${count} ${status}`).join(', ');
  return `Stopped. Participants: ${tally || 'none'}. Export with pmiyc export --run ${runName}.`;
}
