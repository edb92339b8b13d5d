#!/usr/bin/env node
/*
 * `npm start`: the product on its embedded default. Starts the local Backstage
 * backend (packages/backend: catalog, scaffolder with the GPU actions, gpu
 * backend, guest sign-in, in-memory SQLite, a local bare GitOps repository
 * under .data/ seeded from test/fixtures/gitops-repo on first start) and the
 * app (packages/app) with the Backstage CLI's dev server.
 *
 * `npm start -- --config app-config.yaml --config my-overrides.yaml` passes
 * the config files to both (instead of the default app-config.yaml and
 * app-config.local.yaml), resolved against the repository root; the
 * browser end-to-end test runs it that way with its own ports and repository.
 */
const { spawn } = require('node:child_process');
const path = require('node:path');

const root = path.resolve(__dirname, '..');

/** `--config <file>` pairs from our argv, made absolute (the children run in their package folders). */
function configArgs(argv) {
  const args = [];
  for (let i = 0; i < argv.length; i++) {
    const [flag, inline] = argv[i].split(/=(.*)/s, 2);
    if (flag !== '--config') {
      throw new Error(
        `npm start: unknown option ${argv[i]} (only --config <file>)`,
      );
    }
    const file = inline ?? argv[++i];
    if (!file) throw new Error('npm start: --config needs a file');
    args.push('--config', path.resolve(process.cwd(), file));
  }
  return args;
}

const extraArgs = configArgs(process.argv.slice(2));
const startArgs = extraArgs.length ? ['--', ...extraArgs] : [];

// Each in its own process group, so stopping one stops everything it
// started (npm, the Backstage CLI, the backend and the dev server).
const children = ['packages/backend', 'packages/app'].map(workspace =>
  spawn('npm', ['--workspace', workspace, 'run', 'start', ...startArgs], {
    cwd: root,
    stdio: 'inherit',
    detached: true,
  }),
);

const banner = [
  '',
  'GPU GitOps for Backstage is starting:',
  '  app      http://localhost:3000  (sign in as guest; the first build takes a minute)',
  '  backend  http://localhost:7007',
  '  GitOps   .data/gitops.git  (the pull requests are branches there)',
];
if (extraArgs.length) {
  const files = extraArgs.filter((_, i) => i % 2 === 1);
  banner.push(
    `  config   ${files.join(', ')} (ports and repository may differ)`,
  );
}
console.log([...banner, ''].join('\n'));

function signalGroup(child, signal) {
  try {
    process.kill(-child.pid, signal);
  } catch {
    // Already gone.
  }
}

let stopping = false;
/** Stops both (Ctrl-C, or one of them exited): SIGINT, then SIGKILL for what is left after 10 s. */
function stop() {
  if (stopping) return;
  stopping = true;
  children.forEach(child => signalGroup(child, 'SIGINT'));
  setTimeout(() => {
    children.forEach(child => signalGroup(child, 'SIGKILL'));
    process.exit();
  }, 10_000);
}
process.on('SIGINT', stop);
process.on('SIGTERM', stop);

let running = children.length;
for (const child of children) {
  child.on('exit', code => {
    if (code) process.exitCode = code;
    stop();
    if (--running === 0) {
      // Anything a child left behind goes with it.
      children.forEach(c => signalGroup(c, 'SIGKILL'));
      process.exit();
    }
  });
}
