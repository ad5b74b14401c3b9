import { describe, expect, it } from 'vitest';
import type { ParticipantRow } from '../../studies/people/people-results.js';
import { hashToken, looksLikeToken, tokenMatches } from '../server/link-tokens.js';
import { inviteParticipant, mintLink } from './people-links.js';

describe('mintLink', () => {
  it.each([
    ['participant', 'p'],
    ['join', 'join'],
    ['admin', 'admin'],
  ] as const)('makes a %s link under /%s/ whose token the server recognises by the hash kept', (area, segment) => {
    const link = mintLink(area);
    const [first, token, ...rest] = link.path.split('/');
    expect([first, rest]).toEqual([segment, []]);
    expect(token).toBe(link.token);
    expect(looksLikeToken(link.token)).toBe(true);
    expect(link.tokenHash).toBe(hashToken(link.token));
    expect(tokenMatches(link.token, link.tokenHash)).toBe(true);
  });

  it('never makes the same token twice', () => {
    const tokens = new Set(Array.from({ length: 200 }, () => mintLink('participant').token));
    expect(tokens.size).toBe(200);
  });
});

describe('inviteParticipant', () => {
  it('invites with the hash of the token in the link it returns, and never hands the study the token itself', () => {
    const invited: string[] = [];
    const study = {
      invite: (tokenHash: string) => {
        invited.push(tokenHash);
        return { id: `p-00000${invited.length}` } as ParticipantRow;
      },
    };
    const first = inviteParticipant(study);
    const second = inviteParticipant(study);
    expect(first.participantId).toBe('p-000001');
    expect(second.participantId).toBe('p-000002');
    const token = first.path.replace(/^p\//, '');
    expect(first.path).toMatch(/^p\/[A-Za-z0-9_-]{43}$/);
    expect(invited).toEqual([hashToken(token), hashToken(second.path.slice(2))]);
    expect(invited).not.toContain(token);
  });
});
