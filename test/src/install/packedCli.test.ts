import { spawnSync } from 'node:child_process';
import {
  existsSync,
  mkdirSync,
  mkdtempSync,
  rmSync,
  writeFileSync,
} from 'node:fs';
import { tmpdir } from 'node:os';
import path from 'node:path';
import {
  cleanNpmEnv,
  packWorkspacePackages,
  repoRoot,
  run,
} from './packWorkspacePackages';

/**
 * The CLI as an adopter gets it: gpu-common, gpu-node and the CLI built and
 * packed as published, installed from the tarballs into an empty npm project
 * outside the repository (their dependencies from the registry, through the
 * npm cache `npm ci` filled), then run from node_modules/.bin.
 */
const temp = mkdtempSync(path.join(tmpdir(), 'gpu-gitops-install-'));
const adopter = path.join(temp, 'adopter');
const installedCli = path.join(adopter, 'node_modules/@gpu-gitops/cli');

beforeAll(() => {
  const stage = path.join(temp, 'stage');
  mkdirSync(stage);
  mkdirSync(adopter);
  const tarballs = packWorkspacePackages(
    ['plugins/gpu-common', 'plugins/gpu-node', 'packages/cli'],
    stage,
    path.join(temp, 'tarballs'),
  );
  writeFileSync(
    path.join(adopter, 'package.json'),
    JSON.stringify({ name: 'adopter', version: '1.0.0', private: true }),
  );
  run(
    'npm',
    ['install', '--prefer-offline', '--no-audit', '--no-fund', ...tarballs],
    adopter,
  );
}, 30 * 60_000);

afterAll(() => {
  rmSync(temp, { recursive: true, force: true });
});

function gpuGitops(args: string[]) {
  const result = spawnSync(
    path.join(adopter, 'node_modules/.bin/gpu-gitops'),
    args,
    { cwd: adopter, env: cleanNpmEnv(), encoding: 'utf8', timeout: 120_000 },
  );
  return { code: result.status, stdout: result.stdout, stderr: result.stderr };
}

describe('the packed gpu-gitops CLI, installed outside the repository', () => {
  it('is installed from the tarballs, outside the repository, without sources', () => {
    expect(path.relative(repoRoot, adopter)).toMatch(/^\.\./);
    expect(existsSync(path.join(installedCli, 'dist/index.cjs.js'))).toBe(true);
    // The bin runs src/ through Backstage's transform when it exists; an
    // installed package must run dist/.
    expect(existsSync(path.join(installedCli, 'src'))).toBe(false);
  });

  it('prints its help', () => {
    const help = gpuGitops(['--help']);
    expect(help.stderr).toBe('');
    expect(help.code).toBe(0);
    expect(help.stdout).toMatch(/^Usage: gpu-gitops <command>/);
    for (const command of ['plan', 'render', 'pr', 'update', 'validate']) {
      expect(help.stdout).toMatch(new RegExp(`^  ${command} `, 'm'));
    }
  });

  it('plans a request', () => {
    writeFileSync(
      path.join(adopter, 'req.yaml'),
      [
        'kind: GpuRequest',
        'metadata: { name: llm-inference, namespace: ml }',
        'spec:',
        '  owner: group:default/ml-platform',
        '  gpu: { model: l4, sharing: exclusive, replicas: 2, vramGiB: 16 }',
        '  workload: { image: ghcr.io/acme/llm:1.2 }',
        '  capacityTypes: [on-demand]',
        '',
      ].join('\n'),
    );
    const text = gpuGitops(['plan', '--request', 'req.yaml']);
    expect(text.stderr).toBe('');
    expect(text.code).toBe(0);
    expect(text.stdout).toContain('GPU plan for ml/llm-inference');
    expect(text.stdout).toContain('- Pool: gpu-l4 (new)');

    const json = gpuGitops(['plan', '--request', 'req.yaml', '--json']);
    expect(json.code).toBe(0);
    const plan = JSON.parse(json.stdout);
    expect(plan.pool.name).toBe('gpu-l4');
    expect(plan.pool.limits).toEqual({ 'nvidia.com/gpu': 2 });
    expect(plan.sharing.mode).toBe('exclusive');
  });

  it('validates a GitOps tree with the kustomize it installed', () => {
    const fixture = path.join(repoRoot, 'test/fixtures/gitops-repo');
    const validated = gpuGitops(['validate', fixture]);
    expect(validated).toEqual({
      code: 0,
      stdout: `${fixture}: no findings\n`,
      stderr: '',
    });
  });

  it('exits 2 and names the field of a bad request', () => {
    writeFileSync(
      path.join(adopter, 'bad.yaml'),
      'kind: GpuRequest\nmetadata: { name: x, namespace: ml }\nspec:\n  owner: group:default/ml\n  gpu: { model: l4, sharing: exclusive, replicas: 0, vramGiB: 16 }\n  workload: { image: a:1 }\n',
    );
    const bad = gpuGitops(['plan', '--request', 'bad.yaml']);
    expect(bad.code).toBe(2);
    expect(bad.stderr).toContain('spec.gpu.replicas');
  });
});
