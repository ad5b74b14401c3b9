import { escapeHtml } from '../../report/html/safe-html.js';
import type { ParticipantRow, ParticipantStatus } from '../../studies/people/people-results.js';

const STATUSES: readonly ParticipantStatus[] = ['invited', 'consented', 'conversing', 'finished', 'withdrawn'];

/**
 * The researcher's page (`/admin/<admin token>`): how many participants are where, and each one's
 * pseudonymous id, status and times. It shows no participant text (read it with pmiyc view or export)
 * and no link: links are printed once, in the terminal that started the study.
 */
export function peopleAdminHtml(nonce: string, participants: ReadonlyArray<ParticipantRow & { readonly turnsTaken: number }>): string {
  const counts = STATUSES.map((status) => `<li>${status}: ${participants.filter((participant) => participant.status === status).length}</li>`).join('');
  const followUps = participants.filter((participant) => participant.followUp !== null).length;
  const cell = (value: string | number | null) => `<td>${value === null ? '' : escapeHtml(String(value))}</td>`;
  const rows = participants
    .map((participant) =>
      [
        participant.id,
        participant.status,
        participant.claimIndex,
        participant.turnsTaken,
        participant.consentedAt,
        participant.finishedAt,
        participant.endedBecause,
        participant.followUp?.score ?? null,
      ]
        .map(cell)
        .join(''),
    )
    .map((cells) => `<tr>${cells}</tr>`)
    .join('\n');
  return `<!doctype html>
<html lang="en"><head><meta charset="utf-8"><meta name="viewport" content="width=device-width, initial-scale=1">
<title>pmiyc people study: admin</title>
<style nonce="${escapeHtml(nonce)}">body{font-family:system-ui,sans-serif;margin:1rem}table{border-collapse:collapse}td,th{border:1px solid #8886;padding:.2rem .5rem;text-align:left}</style></head>
<body><h1>People study: participants</h1>
<ul>${counts}<li>follow-ups given: ${followUps}</li></ul>
<p>Reload for the latest. Participants' words are not shown here: read them with <code>pmiyc view</code> or <code>pmiyc export</code>.</p>
<table><thead><tr><th>participant</th><th>status</th><th>claim</th><th>turns</th><th>consented</th><th>finished</th><th>ended because</th><th>follow-up</th></tr></thead>
<tbody>
${rows}
</tbody></table></body></html>
`;
}
