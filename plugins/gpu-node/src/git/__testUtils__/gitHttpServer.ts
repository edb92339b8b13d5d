/**
 * Test helper: a real git smart-HTTP server on 127.0.0.1 — Node's http server
 * in front of `git http-backend` (CGI) — that demands one Authorization
 * header, so clone, fetch and push over HTTP are tested for real.
 */
import { spawn } from 'node:child_process';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import { gitEnvironment } from '../auth';

/** @public */
export interface GitHttpRequest {
  method: string;
  url: string;
  authorization?: string;
}

/** @public */
export interface GitHttpServer {
  baseUrl: string;
  requests: GitHttpRequest[];
  close(): Promise<void>;
}

/** @public */
export async function startGitHttpServer(options: {
  /** Folder holding bare repositories (served as /<name>.git). */
  projectRoot: string;
  /**
   * The exact Authorization header required; others get 401. A function is
   * asked on every request (a token that rotates, as GitHub App tokens do).
   */
  authorization: string | (() => string);
  /** Called on each request while the client's git processes are alive. */
  onRequest?: () => void;
  /**
   * While it returns true, requests are accepted and never answered: the
   * stalled remote (or proxy) a timeout must end.
   */
  stall?: () => boolean;
}): Promise<GitHttpServer> {
  const requests: GitHttpRequest[] = [];
  const server = http.createServer((req, res) => {
    const url = new URL(req.url ?? '/', 'http://127.0.0.1');
    options.onRequest?.();
    requests.push({
      method: req.method ?? '',
      url: req.url ?? '',
      authorization: req.headers.authorization,
    });
    if (options.stall?.()) return;
    const expected =
      typeof options.authorization === 'function'
        ? options.authorization()
        : options.authorization;
    if (req.headers.authorization !== expected) {
      res.writeHead(401, { 'www-authenticate': 'Basic realm="git"' });
      res.end('unauthorized\n');
      return;
    }
    const env = gitEnvironment(
      '/',
      {},
      {
        GIT_PROJECT_ROOT: options.projectRoot,
        GIT_HTTP_EXPORT_ALL: '1',
        REQUEST_METHOD: req.method ?? 'GET',
        PATH_INFO: decodeURIComponent(url.pathname),
        QUERY_STRING: url.search.replace(/^\?/, ''),
        CONTENT_TYPE: req.headers['content-type'] ?? '',
        HTTP_CONTENT_ENCODING: String(req.headers['content-encoding'] ?? ''),
        GIT_PROTOCOL: String(req.headers['git-protocol'] ?? ''),
        REMOTE_USER: 'bot',
        REMOTE_ADDR: '127.0.0.1',
      },
    );
    const child = spawn('git', ['http-backend'], { env });
    req.pipe(child.stdin);
    const chunks: Buffer[] = [];
    child.stdout.on('data', c => chunks.push(c));
    child.on('close', () => {
      const out = Buffer.concat(chunks);
      const split = out.indexOf('\r\n\r\n');
      const head = out.subarray(0, split).toString('utf8');
      const body = out.subarray(split + 4);
      let status = 200;
      const headers: Record<string, string> = {};
      for (const line of head.split('\r\n')) {
        const i = line.indexOf(':');
        const key = line.slice(0, i).trim();
        const value = line.slice(i + 1).trim();
        if (key.toLowerCase() === 'status') status = Number.parseInt(value, 10);
        else if (key) headers[key] = value;
      }
      res.writeHead(status, headers);
      res.end(body);
    });
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    baseUrl: `http://127.0.0.1:${port}`,
    requests,
    close: () =>
      new Promise<void>(resolve => {
        server.close(() => resolve());
        // Stalled requests are never answered: end their connections.
        server.closeAllConnections();
      }),
  };
}
