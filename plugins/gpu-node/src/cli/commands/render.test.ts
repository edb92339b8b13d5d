import { existsSync, readFileSync } from 'node:fs';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import { makeWorkdir, requestYaml, runIn } from '../__testUtils__/runInTemp';

const timeSliced = requestYaml(
  'model: t4\nsharing: time-slicing\nreplicas: 8\nvramGiB: 4',
);
const mig = requestYaml(
  'model: a100-40gb\nsharing: mig\nreplicas: 4\nvramGiB: 9',
);

describe('gpu-gitops render', () => {
  it('writes the default repository layout with --out', async () => {
    const dir = makeWorkdir({ 'req.yaml': timeSliced });
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
    expect(existsSync(path.join(gpuDir, 'kustomization.yaml'))).toBe(true);
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
});
