import { readFile } from 'node:fs/promises';
import { createServer, type Server } from 'node:http';
import type { AddressInfo } from 'node:net';
import { join, normalize } from 'node:path';

/** Serves a folder's files on 127.0.0.1 (a stand-in for upstream hosts); records request paths. */
export class StaticServer {
  readonly requests: string[] = [];
  private constructor(private readonly server: Server) {}

  static async start(folder: string, rewrite: (path: string, body: Buffer) => Buffer = (_path, body) => body): Promise<StaticServer> {
    const requests: string[] = [];
    const server = createServer((request, response) => {
      const path = normalize(decodeURIComponent(new URL(request.url ?? '/', 'http://x').pathname)).replace(/^(\.\.[/\\])+/, '');
      requests.push(path);
      readFile(join(folder, path)).then(
        (body) => {
          const sent = rewrite(path, body);
          response.writeHead(200, { 'content-length': String(sent.length) }).end(sent);
        },
        () => response.writeHead(404).end('not found'),
      );
    });
    await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
    const started = new StaticServer(server);
    (started as { requests: string[] }).requests = requests;
    return started;
  }

  get url(): string {
    return `http://127.0.0.1:${(this.server.address() as AddressInfo).port}/`;
  }

  close(): Promise<void> {
    this.server.closeAllConnections();
    return new Promise((resolve) => this.server.close(() => resolve()));
  }
}

/** An address on 127.0.0.1 where nothing listens (a port just released). */
export async function unreachableUrl(): Promise<string> {
  const server = createServer();
  await new Promise<void>((resolve) => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  await new Promise<void>((resolve) => server.close(() => resolve()));
  return `http://127.0.0.1:${port}/`;
}
