import { spawnSync } from 'node:child_process';
import {
  cpSync,
  existsSync,
  mkdirSync,
  mkdtempSync,
  readdirSync,
  readFileSync,
  rmSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { formatMs, percentile, report } from './stats';

const ROOT = path.resolve(__dirname, '..');
const ROUNDS = 7;

/** Our packages as npm installs them: name → folder in this repository. */
const PACKAGES: Record<string, string> = {
  '@gpu-gitops/cli': 'packages/cli',
  '@gpu-gitops/plugin-gpu-node': 'plugins/gpu-node',
  '@gpu-gitops/plugin-gpu-common': 'plugins/gpu-common',
};

function run(cwd: string, command: string, args: string[]): void {
  const done = spawnSync(command, args, { cwd, encoding: 'utf8' });
  if (done.status !== 0) {
    throw new Error(`${command} ${args.join(' ')}: ${done.stderr}`);
  }
}

/** `src/x.ts` → `dist/x.cjs.js`: what `backstage-cli package prepack` writes into a published package.json. */
function publishedPath(entry: string): string {
  return entry.replace(/^(\.\/)?src\/(.*)\.ts$/, '$1dist/$2.cjs.js');
}

/**
 * The CLI as `npm install @gpu-gitops/cli` lays it out: our three packages
 * built (`backstage-cli package build`, the published `dist/`, no `src/`),
 * with their published package.json, beside the third-party packages
 * (linked from this repository's node_modules).
 */
function installCli(root: string): string {
  const modules = path.join(root, 'node_modules');
  mkdirSync(path.join(modules, '@gpu-gitops'), { recursive: true });
  for (const entry of readdirSync(path.join(ROOT, 'node_modules'))) {
    if (entry === '@gpu-gitops' || entry.startsWith('.')) continue;
    symlinkSync(
      path.join(ROOT, 'node_modules', entry),
      path.join(modules, entry),
    );
  }
  for (const [name, folder] of Object.entries(PACKAGES)) {
    const source = path.join(ROOT, folder);
    const hadDist = existsSync(path.join(source, 'dist'));
    run(source, process.execPath, [
      path.join(ROOT, 'node_modules/@backstage/cli/bin/backstage-cli'),
      'package',
      'build',
      '--role',
      'cli',
    ]);
    const target = path.join(modules, name);
    cpSync(path.join(source, 'dist'), path.join(target, 'dist'), {
      recursive: true,
    });
    // The build is the bench's: a checkout keeps no dist it did not have.
    if (!hadDist) {
      rmSync(path.join(source, 'dist'), { recursive: true, force: true });
    }
    if (folder === 'packages/cli') {
      cpSync(path.join(source, 'bin'), path.join(target, 'bin'), {
        recursive: true,
      });
    }
    const manifest = JSON.parse(
      readFileSync(path.join(source, 'package.json'), 'utf8'),
    );
    Object.assign(manifest, manifest.publishConfig ?? {});
    manifest.main = publishedPath(manifest.main);
    for (const key of Object.keys(manifest.exports ?? {})) {
      manifest.exports[key] = publishedPath(manifest.exports[key]);
    }
    writeFileSync(
      path.join(target, 'package.json'),
      JSON.stringify(manifest, null, 2),
    );
  }
  return path.join(modules, '@gpu-gitops', 'cli', 'bin', 'gpu-gitops');
}

/** Wall time of one process, start to exit. */
function timeProcess(cwd: string, args: string[]): number {
  const started = performance.now();
  const done = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  const ms = performance.now() - started;
  if (done.status !== 0) {
    throw new Error(`node ${args.join(' ')}: ${done.stderr}`);
  }
  return ms;
}

/**
 * `gpu-gitops --help` and `gpu-gitops plan` of one request from the
 * installed package, beside `node -e 0` on the same machine (each run a new
 * process; the first run of each fills Node's compile cache and is left out).
 */
export async function benchCliStart(): Promise<void> {
  const root = mkdtempSync(path.join(os.tmpdir(), 'gpu-bench-cli-'));
  try {
    const bin = installCli(root);
    writeFileSync(
      path.join(root, 'req.yaml'),
      `kind: GpuRequest
metadata: { name: chat, namespace: ml }
spec:
  owner: group:default/ml-platform
  gpu: { model: t4, sharing: time-slicing, replicas: 2, vramGiB: 4 }
  workload: { image: ghcr.io/acme/llm:1.2 }
`,
    );
    const runs: Record<string, string[]> = {
      'node -e 0': ['-e', '0'],
      'gpu-gitops --help': [bin, '--help'],
      'gpu-gitops plan': [bin, 'plan', '--request', 'req.yaml'],
    };
    const samples: Record<string, number[]> = {};
    for (const [name, args] of Object.entries(runs)) {
      timeProcess(root, args);
      samples[name] = [];
    }
    // Interleaved, so a busy moment of the machine weighs on all alike.
    for (let i = 0; i < ROUNDS; i++) {
      for (const [name, args] of Object.entries(runs)) {
        samples[name].push(timeProcess(root, args));
      }
    }
    const node = percentile(samples['node -e 0'], 50);
    console.log(
      `\nCLI start from the installed package (${ROUNDS} runs each, p50; node -e 0 p50 ${formatMs(node)})`,
    );
    const goals: Record<string, number> = {
      'gpu-gitops --help': 200,
      'gpu-gitops plan': 500,
    };
    for (const [name, max] of Object.entries(goals)) {
      const p50 = percentile(samples[name], 50);
      report(
        name,
        `p50 ${formatMs(p50)} (node -e 0 + ${formatMs(p50 - node)})`,
        p50,
        { max, unit: 'ms' },
      );
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
