import { spawnSync } from 'node:child_process';
import path from 'node:path';
import { makeWorkdir, requestYaml } from './__testUtils__/runInTemp';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const bin = path.resolve(__dirname, '../bin/gpu-gitops');

/** The installed entry point, as `npx gpu-gitops` runs it: real process, real exit codes. */
describe('bin/gpu-gitops', () => {
  it('runs the TypeScript sources and exits with the command exit code', () => {
    const dir = makeWorkdir({
      'ok.yaml': requestYaml(
        'model: l4\nsharing: exclusive\nreplicas: 2\nvramGiB: 16',
      ),
      'bad.yaml': requestYaml(
        'model: l4\nsharing: exclusive\nreplicas: 0\nvramGiB: 16',
      ),
    });
    const ok = spawnSync(
      process.execPath,
      [bin, 'plan', '--request', 'ok.yaml', '--json'],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    expect(ok.stderr).toBe('');
    expect(ok.status).toBe(0);
    expect(JSON.parse(ok.stdout).pool.name).toBe('gpu-l4');

    const bad = spawnSync(
      process.execPath,
      [bin, 'plan', '--request', 'bad.yaml'],
      {
        cwd: dir,
        encoding: 'utf8',
      },
    );
    expect(bad.status).toBe(2);
    expect(bad.stderr).toContain('spec.gpu.replicas');
  });
});
