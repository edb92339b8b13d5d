/**
 * Test helper: a fake forge API on 127.0.0.1 that records every request and
 * answers from a route table, so forge clients are tested over real HTTP
 * with the real request/response shapes of each API.
 */
import http from 'node:http';
import type { AddressInfo } from 'node:net';

export interface RecordedRequest {
  method: string;
  /** Path plus query string, as received. */
  url: string;
  headers: http.IncomingHttpHeaders;
  body: any;
}

export interface FakeReply {
  status: number;
  json?: unknown;
}

export type FakeRoute = (req: RecordedRequest) => FakeReply | undefined;

export interface FakeForgeServer {
  baseUrl: string;
  requests: RecordedRequest[];
  close(): Promise<void>;
}

/** Routes are tried in order; the first that returns a reply answers. Unmatched → 404. */
export async function startFakeForgeServer(
  routes: FakeRoute[],
): Promise<FakeForgeServer> {
  const requests: RecordedRequest[] = [];
  const server = http.createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on('data', c => chunks.push(c));
    req.on('end', () => {
      const raw = Buffer.concat(chunks).toString('utf8');
      const recorded: RecordedRequest = {
        method: req.method ?? '',
        url: req.url ?? '',
        headers: req.headers,
        body: raw ? JSON.parse(raw) : undefined,
      };
      requests.push(recorded);
      const reply = routes.reduce<FakeReply | undefined>(
        (found, route) => found ?? route(recorded),
        undefined,
      ) ?? { status: 404, json: { message: 'Not Found' } };
      res.writeHead(reply.status, { 'content-type': 'application/json' });
      res.end(reply.json === undefined ? '' : JSON.stringify(reply.json));
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () => new Promise<void>(resolve => server.close(() => resolve())),
  };
}

/** Route helper: matches method and exact path (query included when given). */
export function on(
  method: string,
  path: string | RegExp,
  reply: FakeReply | ((req: RecordedRequest) => FakeReply),
): FakeRoute {
  return req => {
    const matches =
      req.method === method &&
      (typeof path === 'string' ? req.url === path : path.test(req.url));
    if (!matches) return undefined;
    return typeof reply === 'function' ? reply(req) : reply;
  };
}

/** Route helper that answers with each reply in turn, then repeats the last. */
export function sequence(
  method: string,
  path: string,
  replies: FakeReply[],
): FakeRoute {
  let i = 0;
  return on(method, path, () => replies[Math.min(i++, replies.length - 1)]);
}
