/**
 * The CLI as a platform team first runs it on repositories shaped as public
 * ones are (`test/fixtures/flux-blueprints-repo`, `argocd-helm-repo`,
 * `eks-overlays-repo`: their READMEs name the sources): `validate` finds
 * nothing wrong in them as they are, and `import --dry-run` adopts each GPU
 * pool as its nodes really share their GPUs, adding annotations and changing
 * no line the team wrote.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { makeWorkdir, runIn } from '../__testUtils__/runInTemp';

// Each run builds the repository with the real kustomize.
jest.setTimeout(120_000);

const FIXTURES = path.resolve(__dirname, '../../../../test/fixtures');

const SHAPES = [
  {
    fixture: 'flux-blueprints-repo',
    cluster: [
      'name: production',
      'provider: aws-karpenter',
      'karpenterVersion: 1.8.0',
      'devicePluginConfigMap: { name: time-slicing-config, namespace: gpu-operator }',
      'nodeOverlay: true',
      'migStrategy: single',
    ],
    adopted:
      '  gpu (clusters/production/karpenter/gpu-nodepool.yaml): unknown, time-slicing, 4 slices per GPU, nvidia.com/gpu, ledger none\n',
  },
  {
    fixture: 'argocd-helm-repo',
    cluster: [
      'name: prod',
      'provider: aws-karpenter',
      'karpenterVersion: 1.8.0',
      'nodeOverlay: true',
      'migStrategy: single',
    ],
    adopted:
      '  nvdia-gpu (clusters/prod/karpenter/nvidia-gpu.yaml): unknown, time-slicing, 10 slices per GPU, nvidia.com/gpu, ledger none\n',
  },
  {
    fixture: 'eks-overlays-repo',
    cluster: [
      'name: staging',
      'provider: aws-karpenter',
      'karpenterVersion: 1.8.0',
      'nodeClass: { group: karpenter.k8s.aws, kind: EC2NodeClass, name: g5-gpu-karpenter }',
      'nodeOverlay: true',
      'migStrategy: single',
    ],
    // The overlay deploys the base's Deployment into `ml`, 2 replicas.
    adopted:
      '  g5-gpu-karpenter (clusters/staging/karpenter/g5-gpu-karpenter.yaml): a10g, exclusive, nvidia.com/gpu, ledger ml/finetune=1, ml/triton=2\n',
  },
];

/** The diff's added and removed lines in files that existed (request records are new files). */
function changedLinesOfExistingFiles(stdout: string): string[] {
  const diff = stdout.slice(stdout.indexOf('\n--- '));
  return diff
    .split(/\n(?=--- )/)
    .filter(section => !section.startsWith('--- /dev/null'))
    .flatMap(section => section.split('\n'))
    .filter(line => /^[-+]/.test(line) && !/^(---|\+\+\+) /.test(line));
}

async function checkout(fixture: string, cluster: string[]): Promise<string> {
  const dir = makeWorkdir({ 'cluster.yaml': `${cluster.join('\n')}\n` });
  await fs.cp(path.join(FIXTURES, fixture), path.join(dir, 'repo'), {
    recursive: true,
  });
  await fs.rm(path.join(dir, 'repo', 'README.md'));
  return dir;
}

describe.each(SHAPES)(
  'gpu-gitops on $fixture',
  ({ fixture, cluster, adopted }) => {
    it('validate: no finding on the repository as it is', async () => {
      const dir = await checkout(fixture, cluster);
      const run = await runIn(dir, [
        'validate',
        'repo',
        '--cluster',
        'cluster.yaml',
      ]);
      expect(run.stdout).toBe('repo: no findings\n');
      expect(run.code).toBe(0);
    });

    it('import --dry-run: the pool adopted as its nodes share their GPUs, only annotation lines added', async () => {
      const dir = await checkout(fixture, cluster);
      const run = await runIn(dir, [
        'import',
        '--cluster',
        'cluster.yaml',
        '--owner',
        'group:default/ml-platform',
        '--dir',
        'repo',
        '--dry-run',
      ]);
      expect(run.stderr).toBe('');
      expect(run.code).toBe(0);
      expect(run.stdout).toContain(adopted);
      const changed = changedLinesOfExistingFiles(run.stdout);
      expect(changed.filter(line => line.startsWith('-'))).toEqual([]);
      expect(
        changed.every(line =>
          /^\+ {2,}(annotations:|gpu\.backstage\.io\/)/.test(line),
        ),
      ).toBe(true);
    });
  },
);
