import { join } from 'path';
import {
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import { isKustomizeNotFoundError } from '../kustomize';
import { gpuRepoFiles } from './__fixtures__/gpuRepo';
import {
  Finding,
  validateGitOpsTree,
  validateGitOpsTreeReport,
  ValidateGitOpsTreeOptions,
} from './validateGitOpsTree';

/**
 * validateGitOpsTree on what the real kustomize builds: each case is a
 * mistake that reaches a cluster although every file on its own looks fine.
 */
const dirs: string[] = [];
afterAll(async () => {
  await Promise.all(dirs.map(removeTempRepo));
});

async function validate(
  files: Record<string, string>,
  options?: ValidateGitOpsTreeOptions,
): Promise<Finding[]> {
  const dir = await writeTempRepo(files);
  dirs.push(dir);
  return validateGitOpsTree(dir, options);
}

const where = (findings: Finding[]) =>
  findings.map(f => `${f.file} ${f.object} ${f.rule}`);

const TS_POOL = 'clusters/dev/gpu/nodepools/gpu-t4-ts5.yaml';
const MIG_POOL = 'clusters/dev/gpu/nodepools/gpu-a100-mig.yaml';
const EXCLUSIVE_POOL = 'clusters/dev/gpu/nodepools/gpu-t4.yaml';

describe('validateGitOpsTree on the built objects', () => {
  const clean = gpuRepoFiles();

  it('finds nothing wrong in a tree whose every root builds and fits', async () => {
    expect(await validate(clean)).toEqual([]);
  });

  it('reports a workload patch whose container name matches no container (the GPU lands on an image-less second container)', async () => {
    const patch = 'apps/ml/recommender-api/gpu-patch.yaml';
    const findings = await validate({
      ...clean,
      [patch]: clean[patch].replace('- name: api', '- name: recommender'),
    });
    expect(where(findings)).toEqual([
      `${patch} Deployment/recommender-api gpu-container-without-image`,
    ]);
    expect(findings[0].message).toContain('container "recommender"');
  });

  it('reports a device-plugin config file that is gone but still listed in the configMapGenerator', async () => {
    const { ['clusters/dev/gpu/device-plugin/ts-5.yaml']: _gone, ...files } =
      clean;
    const findings = await validate(files);
    expect(where(findings)).toEqual([
      'clusters/dev/kustomization.yaml  kustomize-build',
    ]);
    expect(findings[0].message).toContain(
      'clusters/dev/gpu/device-plugin/ts-5.yaml',
    );
  });

  it("reports a NodeOverlay whose capacity is not its config's replicas x GPU count", async () => {
    const findings = await validate({
      ...clean,
      [TS_POOL]: clean[TS_POOL].replace(
        'nvidia.com/gpu.shared: "5"',
        'nvidia.com/gpu.shared: "8"',
      ),
    });
    expect(where(findings)).toEqual([
      `${TS_POOL} NodeOverlay/gpu-t4-ts5-1gpu node-overlay-capacity`,
    ]);
    expect(findings[0].message).toContain(
      'gives nvidia.com/gpu.shared: 8 to 1-GPU nodes of pool gpu-t4-ts5; its device plugin advertises 5 per GPU (config ts-5), so 5',
    );
  });

  it('reports a GPU container without an image', async () => {
    const path = 'apps/ml/chat/deployment.yaml';
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace(
        '          image: ghcr.io/example/chat:1.0.0\n',
        '',
      ),
    });
    expect(where(findings)).toEqual([
      `${path} Deployment/chat gpu-container-without-image`,
    ]);
  });

  it('reports a pool whose limit is short of what the workloads of every root need together', async () => {
    const findings = await validate({
      ...clean,
      [TS_POOL]: clean[TS_POOL].replace(
        'nvidia.com/gpu: "2"',
        'nvidia.com/gpu: "1"',
      ),
    });
    expect(where(findings)).toEqual([
      `${TS_POOL} NodePool/gpu-t4-ts5 pool-limit-short`,
    ]);
    expect(findings[0].message).toContain(
      '6 replicas × 1 nvidia.com/gpu.shared at 5 per GPU need 2 nvidia.com/gpu; limit is 1',
    );
  });

  it("counts a limit on the pool's own resource in whole nodes of its capacity", async () => {
    const findings = await validate({
      ...clean,
      [TS_POOL]: clean[TS_POOL].replace(
        'nvidia.com/gpu: "2"',
        'nvidia.com/gpu.shared: "6"',
      ),
    });
    expect(where(findings)).toEqual([
      `${TS_POOL} NodePool/gpu-t4-ts5 pool-limit-short`,
    ]);
    expect(findings[0].message).toContain(
      '6 replicas × 1 nvidia.com/gpu.shared at 5 per GPU need 10 nvidia.com/gpu.shared (2 node(s) × 5); limit is 6',
    );
  });

  it('reports a replica larger than any node of its pool', async () => {
    const path = 'apps/ml/chat/deployment.yaml';
    const findings = await validate({
      ...clean,
      [path]: clean[path].replace(
        'nvidia.com/gpu.shared: 1',
        'nvidia.com/gpu.shared: 6',
      ),
    });
    expect(where(findings)).toEqual([
      `${TS_POOL} NodePool/gpu-t4-ts5 replica-exceeds-node`,
    ]);
    expect(findings[0].message).toContain(
      'a replica asks for 6 nvidia.com/gpu.shared, more than the largest node of the pool offers (5)',
    );
  });

  it('sizes a pool on the machines its requirements allow, not one GPU per node when it lists no instance type', async () => {
    const patch = 'apps/ml/recommender-api/gpu-patch.yaml';
    const twoGpus = {
      ...clean,
      [patch]: clean[patch].replace('nvidia.com/gpu: 1', 'nvidia.com/gpu: 2'),
    };
    // G4dn sizes of 4 GPUs (g4dn.12xlarge): 3 replicas of 2 GPUs need 2 nodes, 8 GPUs.
    const bySize = clean[EXCLUSIVE_POOL].replace(
      '- { key: node.kubernetes.io/instance-type, operator: In, values: [g4dn.xlarge] }',
      `- { key: karpenter.k8s.aws/instance-family, operator: In, values: [g4dn] }
        - { key: karpenter.k8s.aws/instance-gpu-count, operator: Gt, values: ["2"] }
        - { key: karpenter.k8s.aws/instance-size, operator: NotIn, values: [metal] }`,
    );
    expect(
      await validate({
        ...twoGpus,
        [EXCLUSIVE_POOL]: bySize.replace(
          'nvidia.com/gpu: "3"',
          'nvidia.com/gpu: "8"',
        ),
      }),
    ).toEqual([]);
    const findings = await validate({ ...twoGpus, [EXCLUSIVE_POOL]: bySize });
    expect(where(findings)).toEqual([
      `${EXCLUSIVE_POOL} NodePool/gpu-t4 pool-limit-short`,
    ]);
    expect(findings[0].message).toContain(
      '2 node(s) of 4 GPU(s) for ml/recommender-api',
    );
  });

  it("counts a Job's parallelism and a CronJob's job parallelism", async () => {
    const job = (kind: string, spec: string) => `apiVersion: batch/v1
kind: ${kind}
metadata: { name: batch-${kind.toLowerCase()}, namespace: ml }
spec:
${spec}`;
    const podTemplate = (indent: string) =>
      `template:
  spec:
    restartPolicy: Never
    nodeSelector: { karpenter.sh/nodepool: gpu-t4 }
    tolerations: [{ key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }]
    containers:
      - name: batch
        image: ghcr.io/example/batch:1
        resources: { limits: { nvidia.com/gpu: 1 } }
`
        .split('\n')
        .map(line => (line ? `${indent}${line}` : line))
        .join('\n');
    const findings = await validate({
      ...clean,
      'apps/ml/batch/kustomization.yaml': 'resources: [job.yaml, cron.yaml]\n',
      'apps/ml/batch/job.yaml': job(
        'Job',
        `  parallelism: 2\n${podTemplate('  ')}`,
      ),
      'apps/ml/batch/cron.yaml': job(
        'CronJob',
        `  schedule: "0 * * * *"\n  jobTemplate:\n    spec:\n${podTemplate('      ')}`,
      ),
    });
    expect(where(findings)).toEqual([
      `${EXCLUSIVE_POOL} NodePool/gpu-t4 pool-limit-short`,
    ]);
    expect(findings[0].message).toContain(
      '6 replicas × 1 nvidia.com/gpu at 1 per GPU need 6 nvidia.com/gpu; limit is 3',
    );
  });

  it('counts whole nodes of the pool instance type: 4 MIG slices of an 8-GPU machine need 8 GPUs', async () => {
    const findings = await validate({
      ...clean,
      [MIG_POOL]: clean[MIG_POOL].replace(
        'nvidia.com/gpu: "8"',
        'nvidia.com/gpu: "7"',
      ),
    });
    expect(where(findings)).toEqual([
      `${MIG_POOL} NodePool/gpu-a100-mig pool-limit-short`,
    ]);
    expect(findings[0].message).toContain(
      '4 replicas × 1 nvidia.com/mig-1g.5gb at 7 per GPU need 8 nvidia.com/gpu; limit is 7',
    );
  });

  it('checks config labels against the ConfigMaps the cluster profile names', async () => {
    const findings = await validate(clean, {
      cluster: {
        devicePluginConfigMap: { name: 'device-plugin-config' },
        migPartedConfigMap: { namespace: 'nvidia' },
      },
    });
    expect(where(findings)).toEqual([
      `${MIG_POOL} NodePool/gpu-a100-mig unknown-mig-config`,
      `${TS_POOL} NodePool/gpu-t4-ts5 unknown-device-plugin-config`,
    ]);
    expect(findings[1].message).toContain('gpu-operator/device-plugin-config');
  });

  it('builds a root that inflates Helm charts without them, and says so in a note', async () => {
    const dir = await writeTempRepo({
      ...clean,
      'clusters/dev/kustomization.yaml':
        'resources:\n  - gpu\n  - gpu-operator\n',
      'clusters/dev/gpu-operator/kustomization.yaml':
        'helmCharts:\n  - name: gpu-operator\n    repo: https://helm.ngc.nvidia.com/nvidia\n    version: v25.3.0\n',
    });
    dirs.push(dir);
    expect(await validateGitOpsTreeReport(dir)).toEqual({
      findings: [],
      notes: [
        "clusters/dev was built without the Helm charts of clusters/dev/gpu-operator: kustomize inflates them only with --enable-helm, a helm binary and the charts' repositories (pass --enable-helm where those are at hand)",
      ],
    });
    // The pools of that root are still checked.
    const short = await validate({
      ...clean,
      'clusters/dev/kustomization.yaml':
        'resources:\n  - gpu\n  - gpu-operator\n',
      'clusters/dev/gpu-operator/kustomization.yaml':
        'helmCharts:\n  - name: gpu-operator\n    repo: https://helm.ngc.nvidia.com/nvidia\n',
      [TS_POOL]: clean[TS_POOL].replace(
        'nvidia.com/gpu: "2"',
        'nvidia.com/gpu: "1"',
      ),
    });
    expect(where(short)).toEqual([
      `${TS_POOL} NodePool/gpu-t4-ts5 pool-limit-short`,
    ]);
  });

  it('refuses to say anything when kustomize is missing', async () => {
    const dir = await writeTempRepo(clean);
    dirs.push(dir);
    const error = await validateGitOpsTree(dir, {
      env: { KUSTOMIZE_BIN: join(dir, 'no-kustomize-here') },
    }).catch(e => e);
    expect(isKustomizeNotFoundError(error)).toBe(true);
  });
});
