import { spawnSync } from 'node:child_process';
import { mkdtempSync, rmSync, writeFileSync } from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

/**
 * What each run loads: the libraries are loaded by the first command that
 * uses them (a factory of `jest.mock` runs when its module is first
 * required), so `--help` answers without the seconds they take to load.
 */
const loaded: string[] = [];
jest.mock('@gpu-gitops/plugin-gpu-common', () => {
  loaded.push('gpu-common');
  return jest.requireActual('@gpu-gitops/plugin-gpu-common');
});
jest.mock('@gpu-gitops/plugin-gpu-node', () => {
  loaded.push('gpu-node');
  return jest.requireActual('@gpu-gitops/plugin-gpu-node');
});
jest.mock('yaml', () => {
  loaded.push('yaml');
  return jest.requireActual('yaml');
});

/** The CLI's entry, required afresh (after `jest.resetModules`). */
function freshCli(): typeof import('./main') {
  return require('./main');
}

const dirs: string[] = [];
afterAll(() => dirs.forEach(d => rmSync(d, { recursive: true, force: true })));

function quietIo(cwd: string) {
  const out: string[] = [];
  return {
    out,
    io: {
      cwd,
      env: {},
      stdout: (text: string) => out.push(text),
      stderr: (text: string) => out.push(text),
    },
  };
}

describe('gpu-gitops loads what a command needs when it runs', () => {
  beforeEach(() => {
    loaded.length = 0;
    jest.resetModules();
  });

  it('--help and a command’s --help load no library', async () => {
    const { runCli } = freshCli();
    const { io, out } = quietIo(process.cwd());
    expect(await runCli(['--help'], io)).toBe(0);
    expect(await runCli(['pr', '--help'], io)).toBe(0);
    expect(out.join('')).toContain('Usage: gpu-gitops pr');
    expect(loaded).toEqual([]);
  });

  it('plan loads gpu-common and YAML, not gpu-node', async () => {
    const { runCli } = freshCli();
    const dir = mkdtempSync(path.join(tmpdir(), 'gpu-cli-lazy-'));
    dirs.push(dir);
    writeFileSync(
      path.join(dir, 'req.yaml'),
      [
        'kind: GpuRequest',
        'metadata: { name: llm-inference, namespace: ml }',
        'spec:',
        '  owner: group:default/ml-platform',
        '  gpu: { model: l4, sharing: exclusive, replicas: 1, vramGiB: 16 }',
        '  workload: { image: ghcr.io/acme/llm:1.2 }',
        '',
      ].join('\n'),
    );
    const { io, out } = quietIo(dir);
    expect(await runCli(['plan', '--request', 'req.yaml', '--json'], io)).toBe(
      0,
    );
    expect(JSON.parse(out.join('')).pool.name).toBe('gpu-l4');
    expect(loaded.sort()).toEqual(['gpu-common', 'yaml']);
  });
});

/**
 * Every module file a real `gpu-gitops` process has loaded when it exits:
 * the bin is required by a `node -e` script that lists `require.cache`, so
 * nothing of Jest's module registry stands in for Node's.
 */
function modulesLoadedBy(args: string[], cwd: string): string[] {
  const bin = path.resolve(__dirname, '../bin/gpu-gitops');
  const script = [
    `process.argv = [process.argv[0], ${JSON.stringify(bin)}, ...${JSON.stringify(args)}];`,
    "process.on('exit', () => process.stderr.write(JSON.stringify(Object.keys(require.cache))));",
    `require(${JSON.stringify(bin)});`,
  ].join('\n');
  const done = spawnSync(process.execPath, ['-e', script], {
    cwd,
    encoding: 'utf8',
  });
  expect(done.status).toBe(0);
  return JSON.parse(done.stderr);
}

describe('the plan command’s module graph', () => {
  it('holds no HTTP client of the permission framework', () => {
    const dir = mkdtempSync(path.join(tmpdir(), 'gpu-cli-graph-'));
    dirs.push(dir);
    writeFileSync(
      path.join(dir, 'req.yaml'),
      [
        'kind: GpuRequest',
        'metadata: { name: chat, namespace: ml }',
        'spec:',
        '  owner: group:default/ml-platform',
        '  gpu: { model: t4, sharing: time-slicing, replicas: 2, vramGiB: 4 }',
        '  workload: { image: ghcr.io/acme/llm:1.2 }',
        '',
      ].join('\n'),
    );
    const loadedFiles = modulesLoadedBy(['plan', '--request', 'req.yaml'], dir);
    // The plan itself was made: the planner and the request schema are in.
    expect(loadedFiles.some(f => f.includes('planner'))).toBe(true);
    const unwanted = loadedFiles.filter(f =>
      /[\\/](plugin-permission-common|cross-fetch|node-fetch|plugin-gpu-node)[\\/]/.test(
        f,
      ),
    );
    expect(unwanted).toEqual([]);
  });
});
