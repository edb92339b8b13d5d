import { join } from 'path';
import { buildWorkloadPatch } from '@gpu-gitops/plugin-gpu-common';
import { applyPlan } from '../changes/applyPlan';
import { writeChangeSet } from '../changes/stagedTree';
import {
  existingRepoFiles,
  removeTempRepo,
  writeTempRepo,
} from '../changes/__fixtures__/gitopsRepo';
import { prepareExistingWorkload } from '../workloads/prepareExistingWorkload';
import {
  devCluster,
  migFixture,
  patchFixture,
} from '../changes/__fixtures__/plans';
import { readRepoState } from './readRepoState';
import { FsRepoTree, MemoryRepoTree } from './tree';

const extraFiles: Record<string, string> = {
  // Unrelated objects and odd files in the pool folder must not confuse the reader.
  'clusters/dev/gpu/nodepools/empty.yaml': '',
  'clusters/dev/gpu/nodepools/comments-only.yaml': '# nothing here yet\n',
  'clusters/dev/gpu/nodepools/broken.yaml':
    'apiVersion: karpenter.sh/v1\nkind: NodePool\n  metadata: [\n',
  'clusters/dev/gpu/nodepools/cpu.yaml': `---
apiVersion: v1
kind: ConfigMap
metadata:
  name: notes
data:
  a: b
---
# a CPU pool someone put here
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: cpu-batch
spec:
  template:
    spec:
      requirements: []
  limits:
    cpu: "64"
`,
  'clusters/dev/gpu/device-plugin/notes.yaml': 'just: a note\n',
};

describe('readRepoState', () => {
  it('parses pools, device-plugin configs, mig-parted configs and GPU workloads', async () => {
    const tree = new MemoryRepoTree({ ...existingRepoFiles, ...extraFiles });
    const state = await readRepoState(tree, undefined, 'dev');

    expect(state.pools).toEqual([
      {
        name: 'gpu-t4-ts4',
        path: 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
        gpuModel: 't4',
        sharingMode: 'time-slicing',
        slicesPerGpu: 4,
        resourceName: 'nvidia.com/gpu.shared',
        instanceTypes: ['g4dn.xlarge'],
        capacityTypes: ['on-demand'],
        requirements: [
          {
            key: 'karpenter.k8s.aws/instance-gpu-manufacturer',
            operator: 'In',
            values: ['nvidia'],
          },
          {
            key: 'karpenter.k8s.aws/instance-gpu-name',
            operator: 'In',
            values: ['t4'],
          },
          {
            key: 'node.kubernetes.io/instance-type',
            operator: 'In',
            values: ['g4dn.xlarge'],
          },
          {
            key: 'karpenter.sh/capacity-type',
            operator: 'In',
            values: ['on-demand'],
          },
        ],
        deviceConfigName: 'ts-4',
        limit: 8,
        limits: { 'nvidia.com/gpu.shared': 8 },
        managed: true,
        taints: [
          { key: 'nvidia.com/gpu', value: 'true', effect: 'NoSchedule' },
        ],
      },
    ]);
    // CPU pools in the pool folder and beside the GPU folder: names no new pool may take.
    expect(state.otherNodePools).toEqual(['cpu-batch', 'default']);
    expect(state.bootstrapped).toBe(true);
    expect(Object.keys(state.devicePluginConfigs)).toEqual(['ts-4']);
    expect(state.devicePluginConfigs['ts-4']).toMatchObject({
      version: 'v1',
      sharing: {
        timeSlicing: { resources: [{ name: 'nvidia.com/gpu', replicas: 4 }] },
      },
    });
    expect(Object.keys(state.migConfigs).sort()).toEqual([
      'all-balanced',
      'all-disabled',
    ]);
    expect(state.workloads).toEqual([
      {
        id: 'ml/chat-assistant',
        namespace: 'ml',
        name: 'chat-assistant',
        path: 'apps/ml/chat-assistant/deployment.yaml',
        pool: 'gpu-t4-ts4',
        resourceName: 'nvidia.com/gpu.shared',
        replicas: 2,
        perReplica: 1,
        kubernetesId: 'chat-assistant',
        // What its pods ask of a node: where they land decides its pool.
        scheduling: {
          nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4-ts4' },
          affinityTerms: [],
          tolerations: [
            { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
          ],
          gpuResources: { 'nvidia.com/gpu.shared': 1 },
        },
      },
    ]);
    expect(state.skipped.map(s => s.path).sort()).toEqual([
      'apps/web/storefront/broken.yaml',
      'clusters/dev/gpu/device-plugin/notes.yaml',
      'clusters/dev/gpu/nodepools/broken.yaml',
    ]);
  });

  it('names the GPU model of a pool without our labels from the catalog', async () => {
    const pool = (
      name: string,
      gpuName: string,
      types: string[],
    ) => `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: ${name}
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
      requirements:
        - {key: karpenter.k8s.aws/instance-gpu-name, operator: In, values: [${gpuName}]}
        - {key: node.kubernetes.io/instance-type, operator: In, values: [${types.join(', ')}]}
  limits:
    nvidia.com/gpu: 8
`;
    const tree = new MemoryRepoTree({
      'clusters/dev/gpu/nodepools/hand-t4.yaml': pool('hand-t4', 't4', [
        'g4dn.xlarge',
        'g4dn.12xlarge',
      ]),
      'clusters/dev/gpu/nodepools/hand-a100.yaml': pool('hand-a100', 'a100', [
        'p4d.24xlarge',
      ]),
      'clusters/dev/gpu/nodepools/hand-unknown.yaml': pool(
        'hand-unknown',
        'z9',
        ['z9.large'],
      ),
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(
      state.pools.map(p => [
        p.name,
        p.gpuModel,
        p.sharingMode,
        p.resourceName,
        p.limit,
      ]),
    ).toEqual([
      ['hand-a100', 'a100-40gb', 'exclusive', 'nvidia.com/gpu', 8],
      ['hand-t4', 't4', 'exclusive', 'nvidia.com/gpu', 8],
      ['hand-unknown', 'z9', 'exclusive', 'nvidia.com/gpu', 8],
    ]);
  });

  it('names the model of a hand-written pool that only requires an EC2 instance family', async () => {
    const tree = new MemoryRepoTree({
      'clusters/dev/gpu/nodepools/batch-t4.yaml': `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: batch-t4
spec:
  template:
    spec:
      nodeClassRef: {group: karpenter.k8s.aws, kind: EC2NodeClass, name: gpu}
      requirements:
        - {key: karpenter.k8s.aws/instance-family, operator: In, values: [g4dn]}
        - {key: karpenter.sh/capacity-type, operator: In, values: [spot]}
  limits:
    nvidia.com/gpu: 8
`,
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(state.pools.map(p => [p.name, p.gpuModel])).toEqual([
      ['batch-t4', 't4'],
    ]);
  });

  it("counts a GPU workload's replicas as its folder deploys them (the team's patch to 2 over the manifest's 3), as the allocation index does", async () => {
    const folder = 'apps/ml/recommender-api';
    const tree = new MemoryRepoTree({
      ...existingRepoFiles,
      [`${folder}/kustomization.yaml`]:
        'namespace: ml\nresources: [deployment.yaml]\npatches:\n  - path: replicas.yaml\n  - path: gpu-patch.yaml\n',
      [`${folder}/replicas.yaml`]:
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  replicas: 2\n',
      [`${folder}/gpu-patch.yaml`]:
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  template: { spec: { containers: [{ name: api, resources: { limits: { nvidia.com/gpu.shared: 1 } } }] } }\n',
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(
      state.workloads
        .filter(w => w.id === 'ml/recommender-api')
        .map(w => w.replicas),
    ).toEqual([2]);
  });

  it("counts the replicas a JSON 6902 patch of the team's sets (the actions read the folder as the index does)", async () => {
    const folder = 'apps/ml/recommender-api';
    const tree = new MemoryRepoTree({
      ...existingRepoFiles,
      [`${folder}/kustomization.yaml`]:
        'namespace: ml\nresources: [deployment.yaml]\npatches:\n  - target: { kind: Deployment, name: recommender-api }\n    patch: |-\n      - op: replace\n        path: /spec/replicas\n        value: 2\n  - path: gpu-patch.yaml\n',
      [`${folder}/gpu-patch.yaml`]:
        'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  template: { spec: { containers: [{ name: api, resources: { limits: { nvidia.com/gpu.shared: 1 } } }] } }\n',
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(
      state.workloads
        .filter(w => w.id === 'ml/recommender-api')
        .map(w => w.replicas),
    ).toEqual([2]);
  });

  it('reads an empty repository as an empty state', async () => {
    const state = await readRepoState(new MemoryRepoTree(), undefined, 'dev');
    expect(state).toEqual({
      pools: [],
      devicePluginConfigs: {},
      migConfigs: {},
      workloads: [],
      otherNodePools: [],
      handWrittenConfigMaps: [],
      skipped: [],
      bootstrapped: false,
    });
  });

  it('reads a pool the product adopted where it lives in the cluster folder; a hand-written GPU pool there is only a name', async () => {
    const tree = new MemoryRepoTree({
      ...existingRepoFiles,
      'clusters/dev/karpenter/gpu.yaml': `# Adopted by the import: pool annotations, no managed-by label.
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-a10g
  annotations:
    gpu.backstage.io/requests: ml/batch=2
    gpu.backstage.io/sharing-mode: exclusive
    gpu.backstage.io/resource-name: nvidia.com/gpu
    gpu.backstage.io/gpu-model: a10g
spec:
  template:
    spec:
      requirements:
        - { key: node.kubernetes.io/instance-type, operator: In, values: [g5.xlarge] }
        - { key: karpenter.sh/capacity-type, operator: In, values: [on-demand] }
  limits:
    nvidia.com/gpu: "4"
---
# Written by hand, never adopted (a team annotation is no ledger): read-only.
apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-l4-research
  annotations:
    research.example.com/sharing: exclusive
spec:
  template:
    spec:
      requirements:
        - { key: node.kubernetes.io/instance-type, operator: In, values: [g6.xlarge] }
  limits:
    nvidia.com/gpu: "2"
`,
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(state.pools.map(p => [p.name, p.path])).toEqual([
      ['gpu-a10g', 'clusters/dev/karpenter/gpu.yaml'],
      ['gpu-t4-ts4', 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml'],
    ]);
    expect(state.pools[0]).toMatchObject({
      gpuModel: 'a10g',
      sharingMode: 'exclusive',
      ledger: [{ request: 'ml/batch', replicas: 2, unitsPerReplica: 1 }],
      limits: { 'nvidia.com/gpu': 4 },
      managed: false,
    });
    expect(state.otherNodePools).toEqual(['default', 'gpu-l4-research']);
  });

  it('reads the NVIDIA configs of hand-written ConfigMaps anywhere in the cluster folder, as read-only ConfigMaps', async () => {
    const tree = new MemoryRepoTree({
      ...existingRepoFiles,
      'clusters/dev/gpu-operator/configs.yaml': `apiVersion: v1
kind: ConfigMap
metadata:
  name: nvidia-device-plugin
  namespace: kube-system
data:
  t4-ts-2: "version: v1\\nflags:\\n  migStrategy: none\\nsharing:\\n  timeSlicing:\\n    resources:\\n      - name: nvidia.com/gpu\\n        replicas: 2\\n"
  ts-4: "version: v1\\nsharing:\\n  timeSlicing:\\n    resources:\\n      - {name: nvidia.com/gpu, replicas: 8}\\n"
  README: not a config
---
apiVersion: v1
kind: ConfigMap
metadata:
  name: mig-parted
data:
  config.yaml: |
    version: v1
    mig-configs:
      all-3g.40gb:
        - devices: all
          mig-enabled: true
          mig-devices: { "3g.40gb": 2 }
`,
      // An app's ConfigMap: no NVIDIA config, not listed.
      'clusters/dev/apps/settings.yaml':
        'apiVersion: v1\nkind: ConfigMap\nmetadata: {name: settings}\ndata: {flags: "a,b"}\n',
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(state.handWrittenConfigMaps).toEqual([
      {
        name: 'nvidia-device-plugin',
        namespace: 'kube-system',
        path: 'clusters/dev/gpu-operator/configs.yaml',
        devicePluginConfigs: {
          't4-ts-2': expect.objectContaining({ version: 'v1' }),
          'ts-4': expect.objectContaining({ version: 'v1' }),
        },
        migConfigs: {},
      },
      {
        name: 'mig-parted',
        path: 'clusters/dev/gpu-operator/configs.yaml',
        devicePluginConfigs: {},
        migConfigs: {
          'all-3g.40gb': [expect.objectContaining({ 'mig-enabled': true })],
        },
      },
    ]);
    // Every config by name: the product's own file wins a name both hold.
    expect(Object.keys(state.devicePluginConfigs).sort()).toEqual([
      't4-ts-2',
      'ts-4',
    ]);
    expect(state.devicePluginConfigs['ts-4']).toMatchObject({
      sharing: { timeSlicing: { resources: [{ replicas: 4 }] } },
    });
    expect(Object.keys(state.migConfigs).sort()).toEqual([
      'all-3g.40gb',
      'all-balanced',
      'all-disabled',
    ]);
  });

  it('parses only the files of the cluster folder that may hold a pool or an NVIDIA ConfigMap', async () => {
    const tree = new MemoryRepoTree({
      ...existingRepoFiles,
      // Broken, but nothing the reader looks for: never parsed, so never reported.
      'clusters/dev/apps/broken.yaml': 'kind: Deployment\nspec: [unclosed\n',
      // Broken, and it may be a pool: reported.
      'clusters/dev/karpenter/broken.yaml':
        'kind: NodePool\nmetadata: [unclosed\n',
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(
      state.skipped.map(s => s.path).filter(p => p.startsWith('clusters/')),
    ).toEqual(['clusters/dev/karpenter/broken.yaml']);
  });

  it('reads back what the merge engine wrote (MIG pool, patched workload)', async () => {
    const dir = await writeTempRepo(existingRepoFiles);
    const tree = new FsRepoTree(dir);
    try {
      await writeChangeSet(
        tree,
        await applyPlan(tree, { ...migFixture(), cluster: devCluster }),
      );
      const patch = patchFixture();
      const prepared = await prepareExistingWorkload({
        dir,
        tree,
        request: patch.plan.request,
        cluster: devCluster,
      });
      patch.manifests.workload.objects = [
        buildWorkloadPatch(patch.plan, devCluster, prepared.target),
      ];
      await writeChangeSet(
        tree,
        await applyPlan(tree, {
          ...patch,
          cluster: devCluster,
          existing: prepared.change,
        }),
      );
      const state = await readRepoState(tree, undefined, 'dev');
      const mig = state.pools.find(p => p.name === 'gpu-a100-40gb-mig-1g.5gb');
      expect(mig).toMatchObject({
        sharingMode: 'mig',
        gpuModel: 'a100-40gb',
        migProfile: '1g.5gb',
        migConfigName: 'all-1g.5gb',
        resourceName: 'nvidia.com/mig-1g.5gb',
        limit: 56,
        ledger: [{ request: 'ml/trainer', replicas: 4, unitsPerReplica: 1 }],
      });
      expect(state.migConfigs['all-1g.5gb']).toEqual([
        { devices: 'all', 'mig-enabled': true, 'mig-devices': { '1g.5gb': 7 } },
      ]);
      expect(state.workloads.find(w => w.id === 'ml/recommender-api')).toEqual({
        id: 'ml/recommender-api',
        namespace: 'ml',
        name: 'recommender-api',
        path: 'apps/ml/recommender-api/gpu-patch-recommender-api.yaml',
        pool: 'gpu-t4-exclusive',
        resourceName: 'nvidia.com/gpu',
        replicas: 3, // from the base Deployment: the patch does not set replicas
        perReplica: 1,
        kubernetesId: 'recommender-api',
        // The request that gave it its GPUs (its record names the cluster).
        request: 'ml/recommender-api',
        // The patch merged over its base, as kustomize deploys it.
        scheduling: expect.objectContaining({
          nodeSelector: { 'karpenter.sh/nodepool': 'gpu-t4-exclusive' },
          gpuResources: { 'nvidia.com/gpu': 1 },
        }),
      });
      expect(state.workloads.find(w => w.id === 'ml/trainer')).toMatchObject({
        replicas: 4,
        resourceName: 'nvidia.com/mig-1g.5gb',
      });
    } finally {
      await removeTempRepo(dir);
    }
  });

  it('reads GPU Jobs (parallelism) and CronJobs (their job template), as a request writes them', async () => {
    const tree = new MemoryRepoTree({
      ...existingRepoFiles,
      'apps/ml/nightly-train/job.yaml': `apiVersion: batch/v1
kind: Job
metadata:
  name: nightly-train
spec:
  parallelism: 3
  template:
    metadata:
      labels: { backstage.io/kubernetes-id: nightly-train }
    spec:
      restartPolicy: Never
      tolerations:
        - { key: nvidia.com/gpu, operator: Exists, effect: NoSchedule }
      containers:
        - name: train
          image: trainer:1
          resources: { limits: { nvidia.com/gpu.shared: 2 } }
`,
      'apps/batch/embed/cronjob.yaml': `apiVersion: batch/v1
kind: CronJob
metadata:
  name: embed
  namespace: batch
spec:
  schedule: "0 3 * * *"
  jobTemplate:
    spec:
      template:
        spec:
          nodeSelector: { karpenter.sh/nodepool: gpu-a10g }
          restartPolicy: OnFailure
          containers:
            - name: embed
              image: embed:1
              resources: { limits: { nvidia.com/gpu: 1 } }
`,
    });
    const state = await readRepoState(tree, undefined, 'dev');
    expect(
      state.workloads
        .filter(w => w.id !== 'ml/chat-assistant')
        .map(({ scheduling, ...workload }) => workload),
    ).toEqual([
      {
        id: 'batch/embed',
        namespace: 'batch',
        name: 'embed',
        path: 'apps/batch/embed/cronjob.yaml',
        // Its node selector names a pool the cluster does not hold: said, not counted.
        placementWarning:
          'GPU workload batch/embed (apps/batch/embed/cronjob.yaml): its pods can land on no GPU pool of cluster dev: nodeSelector karpenter.sh/nodepool=gpu-a10g: nodes of NodePool gpu-t4-ts4 carry gpu-t4-ts4; it is counted on none',
        resourceName: 'nvidia.com/gpu',
        replicas: 1, // a CronJob's Job runs one pod unless parallelism says more
        perReplica: 1,
      },
      {
        id: 'ml/nightly-train',
        namespace: 'ml', // its folder's, by the layout
        name: 'nightly-train',
        path: 'apps/ml/nightly-train/job.yaml',
        pool: 'gpu-t4-ts4', // the one pool serving its shared resource name
        resourceName: 'nvidia.com/gpu.shared',
        replicas: 3,
        perReplica: 2,
        kubernetesId: 'nightly-train',
      },
    ]);
  });

  it('reads the project fixture repository from disk', async () => {
    const tree = new FsRepoTree(
      join(__dirname, '../../../../test/fixtures/gitops-repo'),
    );
    const state = await readRepoState(tree, undefined, 'dev');
    expect(
      state.pools.map(p => [
        p.name,
        p.sharingMode,
        p.slicesPerGpu,
        p.resourceName,
      ]),
    ).toEqual([['gpu-t4-ts4', 'time-slicing', 4, 'nvidia.com/gpu.shared']]);
    // Its limit is on physical GPUs: read into `limits`, not `limit`.
    expect(state.pools[0].limits).toEqual(
      expect.objectContaining({ 'nvidia.com/gpu': expect.any(Number) }),
    );
    expect(state.workloads.map(w => w.id)).toEqual(['ml/chat-assistant']);
    expect(state.skipped).toEqual([]);
  });
});
