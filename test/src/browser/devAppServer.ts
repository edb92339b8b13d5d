/**
 * Serves the GPU plugin's dev app (plugins/gpu/dev) the way a Backstage app
 * is served: a browser bundle (built here with esbuild, seconds instead of
 * the dev server's minutes), an index.html carrying the frontend config, and
 * /api/* passed to a real backend, all on one 127.0.0.1 origin.
 */
import { build } from 'esbuild';
import { promises as fs } from 'node:fs';
import http from 'node:http';
import type { AddressInfo } from 'node:net';
import path from 'node:path';

export const DEV_APP_ENTRY = path.resolve(
  __dirname,
  '../../../plugins/gpu/dev/index.tsx',
);

/** Bundles the dev app into `outdir` (index.js, index.css, assets). */
export async function bundleDevApp(outdir: string): Promise<void> {
  await build({
    entryPoints: [DEV_APP_ENTRY],
    bundle: true,
    outdir,
    publicPath: '/',
    format: 'iife',
    platform: 'browser',
    target: 'es2020',
    jsx: 'automatic',
    logLevel: 'error',
    define: {
      'process.env.NODE_ENV': '"production"',
      'process.env.HAS_REACT_DOM_CLIENT': 'true',
      // Config comes from the <script type="backstage.io/config"> tag instead.
      'process.env.APP_CONFIG': 'undefined',
      global: 'window',
    },
    // Libraries read other process.env keys at run time; the browser has none.
    banner: { js: 'var process = { env: {} };' },
    loader: {
      '.svg': 'file',
      '.png': 'file',
      '.woff': 'file',
      '.woff2': 'file',
      '.ttf': 'file',
      '.eot': 'file',
    },
  });
}

const TYPES: Record<string, string> = {
  '.js': 'text/javascript',
  '.css': 'text/css',
  '.svg': 'image/svg+xml',
  '.png': 'image/png',
  '.woff': 'font/woff',
  '.woff2': 'font/woff2',
  '.ttf': 'font/ttf',
};

export interface DevAppServer {
  url: string;
  close(): Promise<void>;
}

/** Serves the bundle in `dir` and forwards /api/* to the backend on `backendPort`. */
export async function serveDevApp(options: {
  dir: string;
  backendPort: number;
}): Promise<DevAppServer> {
  let origin = '';
  const indexHtml = () => {
    const config = [
      {
        context: 'browser-test',
        data: {
          app: { title: 'GPU plugin', baseUrl: origin },
          backend: { baseUrl: origin },
        },
      },
    ];
    return `<!doctype html>
<html><head><meta charset="utf-8"><title>GPU plugin</title>
<link rel="stylesheet" href="/index.css">
<script type="backstage.io/config">${JSON.stringify(config)}</script>
</head><body><div id="root"></div><script src="/index.js"></script></body></html>`;
  };

  const server = http.createServer((req, res) => {
    const url = req.url ?? '/';
    if (url.startsWith('/api/')) {
      const upstream = http.request(
        {
          host: '127.0.0.1',
          port: options.backendPort,
          path: url,
          method: req.method,
          headers: req.headers,
        },
        answer => {
          res.writeHead(answer.statusCode ?? 502, answer.headers);
          answer.pipe(res);
        },
      );
      upstream.on('error', error => {
        res.writeHead(502).end(String(error));
      });
      req.pipe(upstream);
      return;
    }
    const file = path.join(options.dir, path.basename(url.split('?')[0]));
    fs.readFile(file)
      .then(body => {
        res.writeHead(200, {
          'Content-Type':
            TYPES[path.extname(file)] ?? 'application/octet-stream',
        });
        res.end(body);
      })
      .catch(() => {
        // Every other path is a route of the single-page app.
        res.writeHead(200, { 'Content-Type': 'text/html' });
        res.end(indexHtml());
      });
  });
  await new Promise<void>(resolve =>
    server.listen(0, '127.0.0.1', () => resolve()),
  );
  origin = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url: origin,
    close: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
