import { type AddressInfo, createServer, type Server, type Socket } from 'node:net';

/** One request as it came: its head (request line and headers) and body, and the connection it came on. */
export interface RawRequest {
  readonly head: string;
  readonly body: string;
  readonly socket: Socket;
  /** The connection's number (from 1), in the order the server accepted them. */
  readonly connection: number;
  /** The request's number on the server (from 0). */
  readonly index: number;
}

/** What the server does with a request: writes whatever bytes it likes, when it likes, on `request.socket`. */
export type RawScript = (request: RawRequest) => unknown;

/**
 * A plain TCP server on 127.0.0.1 that reads HTTP/1.1 requests (framed by Content-Length, as pmiyc
 * sends them) and answers with raw bytes from a script: malformed, split, late or endless replies that
 * no HTTP server library would send. Records requests and counts connections and the bytes it wrote.
 */
export class RawHttpServer {
  readonly requests: RawRequest[] = [];
  connections = 0;
  private readonly server: Server;
  private readonly sockets = new Set<Socket>();

  private constructor(private script: RawScript) {
    this.server = createServer((socket) => this.accept(socket));
  }

  static async start(script: RawScript): Promise<RawHttpServer> {
    const raw = new RawHttpServer(script);
    await new Promise<void>((resolve) => raw.server.listen(0, '127.0.0.1', resolve));
    return raw;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}`;
  }

  answerWith(script: RawScript): void {
    this.script = script;
  }

  async close(): Promise<void> {
    for (const socket of this.sockets) socket.destroy();
    await new Promise<void>((resolve) => this.server.close(() => resolve()));
  }

  private accept(socket: Socket): void {
    this.connections += 1;
    const connection = this.connections;
    this.sockets.add(socket);
    socket.on('close', () => this.sockets.delete(socket));
    socket.on('error', () => {}); // a client that gives up resets the connection: expected here
    let pending = Buffer.alloc(0);
    socket.on('data', (chunk: Buffer) => {
      pending = Buffer.concat([pending, chunk]);
      for (;;) {
        const end = pending.indexOf('\r\n\r\n');
        if (end < 0) return;
        const head = pending.toString('latin1', 0, end);
        const length = Number(/^content-length:\s*(\d+)/im.exec(head)?.[1] ?? 0);
        if (pending.length < end + 4 + length) return;
        const body = pending.toString('utf8', end + 4, end + 4 + length);
        pending = pending.subarray(end + 4 + length);
        const request: RawRequest = { head, body, socket, connection, index: this.requests.length };
        this.requests.push(request);
        void this.script(request);
      }
    });
  }
}

/** A complete response: status line, the headers given (Content-Length added unless framing is given), CRLF line ends. */
export function rawResponse(body: string, headers: Readonly<Record<string, string>> = {}, statusLine = 'HTTP/1.1 200 OK'): string {
  const framed = Object.keys(headers).some((name) => /^(content-length|transfer-encoding)$/i.test(name));
  const all = { 'Content-Type': 'application/json', ...(framed ? {} : { 'Content-Length': String(Buffer.byteLength(body)) }), ...headers };
  return `${statusLine}\r\n${Object.entries(all)
    .map(([name, value]) => `${name}: ${value}\r\n`)
    .join('')}\r\n${body}`;
}

/** Writes `bytes` in pieces of `size` bytes, each on a later turn of the event loop, so that TCP delivers them apart. */
export async function writeInPieces(socket: Socket, bytes: string | Buffer, size: number): Promise<void> {
  const buffer = typeof bytes === 'string' ? Buffer.from(bytes, 'utf8') : bytes;
  for (let at = 0; at < buffer.length && !socket.destroyed; at += size) {
    socket.write(buffer.subarray(at, at + size));
    await new Promise((resolve) => setTimeout(resolve, 1));
  }
}
