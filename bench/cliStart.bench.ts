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

/** Clock ticks per second of /proc's CPU times (`getconf CLK_TCK`). */
const CLOCK_TICKS = Number(
  spawnSync('getconf', ['CLK_TCK'], { encoding: 'utf8' }).stdout?.trim() || 100,
);

/**
 * CPU time of this process's finished children so far (Linux: cutime +
 * cstime of /proc/self/stat; undefined elsewhere). On a machine shared with
 * other work the wall time of a start mostly measures the queue for a core;
 * the CPU a start took does not.
 */
function childrenCpuMs(): number | undefined {
  try {
    const stat = readFileSync('/proc/self/stat', 'utf8');
    const fields = stat.slice(stat.lastIndexOf(')') + 2).split(' ');
    // Fields 16 and 17 of proc(5), counted from the state (field 3).
    return ((Number(fields[13]) + Number(fields[14])) * 1000) / CLOCK_TICKS;
  } catch {
    return undefined;
  }
}

interface ProcessTime {
  wallMs: number;
  cpuMs?: number;
}

/** Wall time of one process, start to exit, and the CPU it took. */
function timeProcess(cwd: string, args: string[]): ProcessTime {
  const cpuBefore = childrenCpuMs();
  const started = performance.now();
  const done = spawnSync(process.execPath, args, { cwd, encoding: 'utf8' });
  const wallMs = performance.now() - started;
  const cpuAfter = childrenCpuMs();
  if (done.status !== 0) {
    throw new Error(`node ${args.join(' ')}: ${done.stderr}`);
  }
  return {
    wallMs,
    cpuMs:
      cpuBefore === undefined || cpuAfter === undefined
        ? undefined
        : cpuAfter - cpuBefore,
  };
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
    const samples: Record<string, ProcessTime[]> = {};
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
    const wall = (name: string) =>
      percentile(
        samples[name].map(t => t.wallMs),
        50,
      );
    const cpu = (name: string) => {
      const times = samples[name].flatMap(t =>
        t.cpuMs === undefined ? [] : [t.cpuMs],
      );
      return times.length > 0 ? percentile(times, 50) : undefined;
    };
    const node = wall('node -e 0');
    const nodeCpu = cpu('node -e 0');
    console.log(
      `\nCLI start from the installed package (${ROUNDS} runs each, p50; node -e 0 p50 ${formatMs(node)}` +
        `${nodeCpu === undefined ? '' : `, CPU ${formatMs(nodeCpu)}`}; load average ${os.loadavg()[0].toFixed(2)} on ${os.availableParallelism()} cores)`,
    );
    const goals: Record<string, number> = {
      'gpu-gitops --help': 200,
      'gpu-gitops plan': 500,
    };
    for (const [name, max] of Object.entries(goals)) {
      const p50 = wall(name);
      report(
        name,
        `p50 ${formatMs(p50)} (node -e 0 + ${formatMs(p50 - node)})`,
        p50 - node,
        { max, unit: 'ms over node -e 0' },
      );
      const used = cpu(name);
      if (used !== undefined && nodeCpu !== undefined) {
        console.log(
          `  ${name}: CPU p50 ${formatMs(used)} (node -e 0 + ${formatMs(used - nodeCpu)}): the wall figure less the wait for a core`,
        );
      }
    }
  } finally {
    rmSync(root, { recursive: true, force: true });
  }
}
