// The loopback OpenAI-compatible server of the whole-run benches (bench/tournament.mjs, bench/cpu-ratio.mjs):
// every request is answered after a fixed latency with a reply made from a digest of its body, so the same
// body always gets the same reply (a tagged message and a support ranking that a persuadee's reply parses).
import { createHash } from 'node:crypto';
import { createServer } from 'node:http';
import { chatCompletion } from '../chat-completion.mjs';

const LABELS = ['Completely Oppose', 'Oppose', 'Neutral', 'Support', 'Completely Support'];

/** The reply to a request body: the same body, the same reply. */
function replyTo(body) {
  const digest = createHash('sha256').update(body).digest();
  const text = `<message>Reply ${digest.toString('hex').slice(0, 12)}.</message>\n<support_ranking>${LABELS[digest[0] % 5]}</support_ranking>`;
  return chatCompletion(text, { promptTokens: Math.ceil(body.length / 4), completionTokens: 20 });
}

/**
 * Starts the server on 127.0.0.1. `recorded`, when given, gets every request's { method, path, body } in the order the
 * bodies arrived. `stats` tells when the server saw its first request, sent its last reply and last had
 * `fullAt` requests in flight (performance.now() times), and its peak in flight.
 */
export async function startScriptedServer({ latencyMs, fullAt = Number.POSITIVE_INFINITY, recorded }) {
  const stats = { requests: 0, inFlight: 0, peakInFlight: 0, firstRequestAt: undefined, lastReplyAt: undefined, lastFullAt: undefined };
  const server = createServer((request, response) => {
    let body = '';
    request.setEncoding('utf8');
    request.on('data', (chunk) => (body += chunk));
    request.on('end', () => {
      stats.requests += 1;
      stats.firstRequestAt ??= performance.now();
      stats.inFlight += 1;
      stats.peakInFlight = Math.max(stats.peakInFlight, stats.inFlight);
      recorded?.push({ method: request.method, path: request.url, body });
      const reply = replyTo(body);
      setTimeout(() => {
        if (stats.inFlight >= fullAt) stats.lastFullAt = performance.now();
        stats.inFlight -= 1;
        stats.lastReplyAt = performance.now();
        response.writeHead(200, { 'content-type': 'application/json' }).end(reply);
      }, latencyMs);
    });
  });
  await new Promise((resolve) => server.listen(0, '127.0.0.1', resolve));
  const origin = `http://127.0.0.1:${server.address().port}`;
  return {
    origin,
    baseURL: `${origin}/v1`,
    stats,
    close: () => new Promise((resolve) => server.close(resolve)),
  };
}
