import {
  existsSync,
  mkdirSync,
  readdirSync,
  readFileSync,
  symlinkSync,
  writeFileSync,
} from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { makeWorkdir, requestYaml, runIn } from '../__testUtils__/runInTemp';
import {
  EMPTY_KUSTOMIZATION,
  SYMLINK_CASES,
  symlinkWorkdir,
} from '../__testUtils__/symlinkRepo';

// Real git, real kustomize and child processes on a shared, busy CI machine:
// a generous ceiling that catches hangs, not a speed goal.
jest.setTimeout(120_000);

const timeSliced = requestYaml(
  'model: t4\nsharing: time-slicing\nreplicas: 8\nvramGiB: 4',
);
const mig = requestYaml(
  'model: a100-40gb\nsharing: mig\nreplicas: 4\nvramGiB: 9',
);

describe('gpu-gitops render', () => {
  it('refuses a folder that is not a checkout of a bootstrapped cluster, writing nothing', async () => {
    const dir = makeWorkdir({ 'req.yaml': timeSliced });
    const missing = await runIn(dir, [
      'render',
      '--request',
      'req.yaml',
      '--out',
      'gitops',
    ]);
    expect(missing.code).toBe(2);
    expect(missing.stderr).toContain('--out: gitops is not a directory');
    mkdirSync(path.join(dir, 'gitops'));
    const empty = await runIn(dir, [
      'render',
      '--request',
      'req.yaml',
      '--out',
      'gitops',
    ]);
    expect(empty.code).toBe(2);
    expect(empty.stderr).toContain('[cluster-not-bootstrapped]');
    expect(readdirSync(path.join(dir, 'gitops'))).toEqual([]);
  });

  it('writes the default repository layout with --out', async () => {
    // A checkout whose cluster the gpu-cluster-bootstrap has set up.
    const dir = makeWorkdir({
      'req.yaml': timeSliced,
      'gitops/clusters/default/gpu/kustomization.yaml': EMPTY_KUSTOMIZATION,
    });
    const run = await runIn(dir, [
      'render',
      '--request',
      'req.yaml',
      '--out',
      'gitops',
    ]);
    expect(run.stderr).toBe('');
    expect(run.code).toBe(0);
    const root = path.join(dir, 'gitops');
    const gpuDir = path.join(root, 'clusters/default/gpu');
    expect(
      parseAllDocuments(
        readFileSync(path.join(gpuDir, 'kustomization.yaml'), 'utf8'),
      )[0].toJS().resources,
    ).toEqual(['nodepools/gpu-t4-ts3.yaml']);
    expect(existsSync(path.join(gpuDir, 'nodepools/gpu-t4-ts3.yaml'))).toBe(
      true,
    );
    expect(
      existsSync(path.join(root, 'apps/ml/llm-inference/kustomization.yaml')),
    ).toBe(true);
    expect(existsSync(path.join(root, 'requests/ml/llm-inference.yaml'))).toBe(
      true,
    );
    const pool = parseAllDocuments(
      readFileSync(path.join(gpuDir, 'nodepools/gpu-t4-ts3.yaml'), 'utf8'),
    ).map(d => d.toJS());
    expect(pool.map(o => o.kind)).toEqual(
      expect.arrayContaining(['NodePool', 'NodeOverlay']),
    );

    // A second render of the same request finds nothing to do.
    const again = await runIn(dir, [
      'render',
      '--request',
      'req.yaml',
      '--out',
      'gitops',
    ]);
    expect(again.code).toBe(0);
    expect(again.stdout).toContain('nothing written');
  });

  it('prints one multi-document stream with --stdout', async () => {
    const dir = makeWorkdir({ 'req.yaml': mig });
    const run = await runIn(dir, [
      'render',
      '--request',
      'req.yaml',
      '--stdout',
    ]);
    expect(run.code).toBe(0);
    const objects = parseAllDocuments(run.stdout).map(d => d.toJS());
    const kinds = objects.map(o => o.kind);
    expect(kinds).toEqual(
      expect.arrayContaining([
        'NodePool',
        'NodeOverlay',
        'ConfigMap',
        'Deployment',
      ]),
    );
    const migConfig = objects.find(o => o.kind === 'ConfigMap');
    expect(migConfig.data['config.yaml']).toContain('all-1g.10gb');
  });

  it('needs exactly one of --out and --stdout', async () => {
    const dir = makeWorkdir({ 'req.yaml': mig });
    const run = await runIn(dir, ['render', '--request', 'req.yaml']);
    expect(run.code).toBe(2);
    expect(run.stderr).toContain('--out');
  });

  describe('--out into a repository holding a symbolic link', () => {
    it.each(SYMLINK_CASES)(
      'refuses %s (exit 2, names it) and writes nothing there',
      async (_case, linkPath, targetExists) => {
        const { dir, outside, target } = symlinkWorkdir(targetExists);
        // A cluster set up for GPUs (its kustomization exists), holding the link.
        const gpuDir = path.join(dir, 'gitops/clusters/default/gpu');
        mkdirSync(gpuDir, { recursive: true });
        writeFileSync(
          path.join(gpuDir, 'kustomization.yaml'),
          EMPTY_KUSTOMIZATION,
        );
        const link = path.join(dir, 'gitops', ...linkPath.split('/'));
        mkdirSync(path.dirname(link), { recursive: true });
        symlinkSync(target, link);
        const run = await runIn(dir, [
          'render',
          '--request',
          'req.yaml',
          '--out',
          'gitops',
        ]);
        expect(run.code).toBe(2);
        expect(run.stderr).toContain(`${linkPath}: is a symbolic link`);
        expect(run.stderr).toContain('[symlink]');
        expect(readdirSync(outside)).toEqual([]);
      },
    );
  });
});
