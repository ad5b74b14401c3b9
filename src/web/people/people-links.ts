import type { PeopleStudy } from '../../studies/people/people-study.js';
import { hashToken, newLinkToken } from '../server/link-tokens.js';

/**
 * The first segment of each path a people study's server answers (its only paths besides a favicon): a
 * participant's own link, the open link that admits newcomers, and the admin page of one session.
 */
export const LINK_AREAS = { participant: 'p', join: 'join', admin: 'admin' } as const;

export type LinkArea = keyof typeof LINK_AREAS;

/** A link made once: its secret (shown once, never stored), the hash the study keeps, and its path below the server's base address. */
export interface MintedLink {
  readonly token: string;
  readonly tokenHash: string;
  /** Relative to the base address, with no leading slash: `p/<token>`. */
  readonly path: string;
}

/** The one place a link of a people study is made: a fresh token (link-tokens.ts) in its area's path. */
export function mintLink(area: LinkArea): MintedLink {
  const token = newLinkToken();
  return { token, tokenHash: hashToken(token), path: `${LINK_AREAS[area]}/${token}` };
}

/**
 * A new participant of the study with a link of their own: the command's links (`--participants N`)
 * and each newcomer of the open link are made here. The token is drawn before the participant's id,
 * in this order, so that a seeded test sees the same ids and links.
 */
export function inviteParticipant(study: Pick<PeopleStudy, 'invite'>): { readonly participantId: string; readonly path: string } {
  const link = mintLink('participant');
  return { participantId: study.invite(link.tokenHash).id, path: link.path };
}
