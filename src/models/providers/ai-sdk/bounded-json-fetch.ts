import { InvalidResponseDataError } from 'ai';
import { MAX_JSON_DEPTH, nestsBeyond } from '../../../domain/bounded-json.js';

type FetchFunction = typeof globalThis.fetch;

/**
 * A fetch for the AI SDK's providers that refuses a body nested deeper than `MAX_JSON_DEPTH`, as a
 * reply pmiyc cannot read (a retryable ModelCallError, `provider-error.ts`). The SDK parses any depth
 * and then walks what it read recursively (Anthropic's tool input is turned back into text with
 * `JSON.stringify`), so a server answering 100,000 nested lists would otherwise end the call with
 * a stack overflow, which no layer takes for the server's fault. The whole body is in memory already
 * (the transport reads it whole, within the model's `maxReplyBytes`); its bytes are scanned as
 * Latin-1, which keeps every bracket, quote and backslash where UTF-8 put them.
 */
export function boundedJsonFetch(send: FetchFunction): FetchFunction {
  return async (input, init) => {
    const response = await send(input, init);
    if (response.body === null) return response;
    const bytes = Buffer.from(await response.arrayBuffer());
    if (nestsBeyond(bytes.toString('latin1'), MAX_JSON_DEPTH)) {
      throw new InvalidResponseDataError({ data: undefined, message: `its lists and objects nest more than ${MAX_JSON_DEPTH} deep` });
    }
    return new Response(bytes, { status: response.status, statusText: response.statusText, headers: response.headers });
  };
}
