#!/usr/bin/env node
/*
 * `npm start`: the product on its embedded default. Starts the local Backstage
 * backend (catalog, scaffolder with the GPU actions, guest sign-in, in-memory
 * SQLite) and a local bare GitOps repository under .data/, seeded from
 * test/fixtures/gitops-repo on first start. The browser app (packages/app)
 * joins here when it exists.
 */
const { spawn } = require('node:child_process');
const fs = require('node:fs');
const path = require('node:path');

const root = path.resolve(__dirname, '..');
const hasApp = fs.existsSync(path.join(root, 'packages/app/package.json'));

const children = [
  spawn('npm', ['--workspace', 'packages/backend', 'run', 'start'], {
    cwd: root,
    stdio: 'inherit',
  }),
];
if (hasApp) {
  children.push(
    spawn('npm', ['--workspace', 'packages/app', 'run', 'start'], {
      cwd: root,
      stdio: 'inherit',
    }),
  );
}

console.log(
  [
    '',
    'GPU GitOps for Backstage is starting:',
    '  backend  http://localhost:7007  (GitOps repository: .data/gitops.git)',
    hasApp
      ? '  app      http://localhost:3000'
      : '  app      coming: until packages/app exists, use the API or the CLI (README.md)',
    '',
  ].join('\n'),
);

const stop = () => children.forEach(child => child.kill('SIGINT'));
process.on('SIGINT', stop);
process.on('SIGTERM', stop);
for (const child of children) {
  child.on('exit', code => {
    if (code) process.exitCode = code;
    stop();
  });
}
