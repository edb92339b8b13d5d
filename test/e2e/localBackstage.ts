/**
 * The local Backstage exactly as `npm start` runs it (scripts/start.js: the
 * backend and the app's dev server from the Backstage CLI), on free ports
 * and with its embedded GitOps repository and caches in a temp dir, so a
 * test never touches a developer's .data/ or a running `npm start`. The
 * differences live in one extra config file passed with `--config` after
 * the project's app-config.yaml.
 */
import { spawn, type ChildProcess } from 'node:child_process';
import { createWriteStream, promises as fs } from 'node:fs';
import net from 'node:net';
import path from 'node:path';
import { stringify } from 'yaml';

const REPO_ROOT = path.resolve(__dirname, '../..');

export interface LocalBackstage {
  appUrl: string;
  backendUrl: string;
  /** The embedded GitOps repository (bare) the backend seeded and pushes to. */
  gitopsRepo: string;
  /** Everything the processes printed, for a failing test's message. */
  logFile: string;
  stop(): Promise<void>;
}

/** A TCP port nobody listens on right now. */
async function freePort(): Promise<number> {
  const server = net.createServer();
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as net.AddressInfo;
  await new Promise(resolve => server.close(resolve));
  return port;
}

async function tail(file: string, lines = 40): Promise<string> {
  const text = await fs.readFile(file, 'utf8').catch(() => '');
  return text.split('\n').slice(-lines).join('\n');
}

/** Polls `url` until `ready(status, body)` holds; fails early when the processes died. */
async function waitFor(
  url: string,
  ready: (status: number, body: string) => boolean,
  options: { timeoutMs: number; child: ChildProcess; logFile: string },
): Promise<void> {
  const deadline = Date.now() + options.timeoutMs;
  for (;;) {
    if (options.child.exitCode !== null) {
      throw new Error(
        `npm start exited with ${options.child.exitCode} before ${url} was ready:\n${await tail(options.logFile)}`,
      );
    }
    try {
      const response = await fetch(url);
      if (ready(response.status, await response.text())) return;
    } catch {
      // Not listening yet.
    }
    if (Date.now() > deadline) {
      throw new Error(
        `${url} not ready after ${options.timeoutMs / 1000} s:\n${await tail(options.logFile)}`,
      );
    }
    await new Promise(resolve => setTimeout(resolve, 500));
  }
}

/**
 * Starts `npm start` with the project's app-config.yaml plus an override
 * file in `dir`, and resolves once the backend is ready and the app's
 * bundle is served.
 */
export async function startLocalBackstage(options: {
  dir: string;
  /** Extra config merged over app-config.yaml (and over this helper's ports and paths). */
  config?: Record<string, unknown>;
  timeoutMs?: number;
}): Promise<LocalBackstage> {
  const { dir } = options;
  const timeoutMs = options.timeoutMs ?? 240_000;
  const [appPort, backendPort] = [await freePort(), await freePort()];
  const appUrl = `http://localhost:${appPort}`;
  const backendUrl = `http://localhost:${backendPort}`;
  const gitopsRepo = path.join(dir, 'gitops.git');

  const overrides = path.join(dir, 'app-config.e2e.yaml');
  await fs.writeFile(
    overrides,
    stringify({
      app: { baseUrl: appUrl },
      backend: {
        baseUrl: backendUrl,
        listen: { port: backendPort },
        cors: { origin: appUrl },
      },
      gpu: {
        gitops: { repoUrl: gitopsRepo, cacheDir: path.join(dir, 'cache') },
      },
    }),
  );
  const extraFiles: string[] = [];
  if (options.config) {
    const extra = path.join(dir, 'app-config.test.yaml');
    await fs.writeFile(extra, stringify(options.config));
    extraFiles.push(extra);
  }

  const logFile = path.join(dir, 'npm-start.log');
  const log = createWriteStream(logFile);
  await new Promise(resolve => log.once('open', resolve));
  const configArgs = [
    path.join(REPO_ROOT, 'app-config.yaml'),
    overrides,
    ...extraFiles,
  ].flatMap(file => ['--config', file]);
  const child = spawn('node', ['scripts/start.js', ...configArgs], {
    cwd: REPO_ROOT,
    stdio: ['ignore', log, log],
    // As from a terminal: Jest's NODE_ENV=test would select no browserslist
    // environment for the app's bundler.
    env: {
      ...process.env,
      NODE_ENV: 'development',
      BROWSER: 'none',
      FORCE_COLOR: '0',
    },
  });
  const exited = new Promise<void>(resolve =>
    child.once('exit', () => resolve()),
  );

  // start.js stops its children on SIGINT (SIGKILL for stragglers after 10 s).
  const stop = async () => {
    if (child.exitCode === null && child.signalCode === null) {
      child.kill('SIGINT');
      const timer = setTimeout(() => child.kill('SIGKILL'), 20_000);
      await exited;
      clearTimeout(timer);
    }
    log.end();
  };

  try {
    await waitFor(
      `${backendUrl}/.backstage/health/v1/readiness`,
      status => status === 200,
      { timeoutMs, child, logFile },
    );
    await waitFor(
      appUrl,
      (status, body) =>
        status === 200 && body.includes('<div id="root"></div>'),
      { timeoutMs, child, logFile },
    );
  } catch (error) {
    await stop();
    throw error;
  }
  return { appUrl, backendUrl, gitopsRepo, logFile, stop };
}
