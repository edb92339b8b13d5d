import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';
import { compileRepoLayout } from '@gpu-gitops/plugin-gpu-node';
import {
  parseClusterFolderPoolFile,
  parseConfigMapFile,
  parseDevicePluginConfigFile,
  parseMigConfigFile,
  parsePoolFile,
  parseWorkloadFolders,
} from './fileParsers';

const ctx = {
  layout: compileRepoLayout(undefined, ['dev']),
  catalog: builtinCatalog,
};

const nodePool = `apiVersion: karpenter.sh/v1
kind: NodePool
metadata:
  name: gpu-a100-mig
spec:
  template:
    metadata:
      labels:
        nvidia.com/mig.config: all-1g.5gb
    spec:
      requirements:
        - {key: node.kubernetes.io/instance-type, operator: In, values: [p4d.24xlarge]}
  limits:
    nvidia.com/mig-1g.5gb: 56
`;

describe('fileParsers (one blob at a time)', () => {
  it('reads a device-plugin config under the name the layout gives its file, and reports one without a version', () => {
    const path = 'clusters/dev/gpu/device-plugin/ts-2.yaml';
    expect(
      parseDevicePluginConfigFile(path, 'ts-2', 'version: v1\nsharing: {}\n'),
    ).toEqual({
      configs: { 'ts-2': { version: 'v1', sharing: {} } },
      skipped: [],
    });
    expect(parseDevicePluginConfigFile(path, 'ts-2', 'a: b\n')).toEqual({
      configs: {},
      skipped: [{ path, reason: 'not a device-plugin config (no `version`)' }],
    });
  });

  it('reads a pool against the configs it names: a MIG geometry gives its profile', () => {
    const migPath = 'clusters/dev/gpu/mig/config.yaml';
    const mig = parseMigConfigFile(
      migPath,
      `version: v1
mig-configs:
  all-1g.5gb:
    - devices: all
      mig-enabled: true
      mig-devices: { 1g.5gb: 7 }
`,
    );
    expect(mig.skipped).toEqual([]);
    const parsed = parsePoolFile(
      ctx,
      'clusters/dev/gpu/nodepools/gpu-a100-mig.yaml',
      nodePool,
      { devicePluginConfigs: {}, migConfigs: mig.configs },
    );
    expect(parsed.skipped).toEqual([]);
    expect(parsed.pools).toEqual([
      expect.objectContaining({
        name: 'gpu-a100-mig',
        gpuModel: 'a100-40gb',
        sharingMode: 'mig',
        migConfigName: 'all-1g.5gb',
        migProfile: '1g.5gb',
        resourceName: 'nvidia.com/mig-1g.5gb',
        limit: 56,
      }),
    ]);
    // Without the geometry the profile is unknown, the rest is read alike.
    const bare = parsePoolFile(ctx, 'x.yaml', nodePool, {
      devicePluginConfigs: {},
      migConfigs: {},
    });
    expect(bare.pools[0].migProfile).toBeUndefined();
    expect(bare.pools[0].sharingMode).toBe('mig');
  });

  it('hands each workload folder its GPU workloads, its workload objects and its skipped files', async () => {
    const parsed = await parseWorkloadFolders(
      ctx,
      new Map([
        [
          'apps/ml/train',
          new Map([
            [
              'apps/ml/train/job.yaml',
              'apiVersion: batch/v1\nkind: Job\nmetadata: { name: train }\nspec:\n  parallelism: 2\n  template: { spec: { containers: [{ name: t, resources: { limits: { nvidia.com/gpu: 1 } } }] } }\n',
            ],
            ['apps/ml/train/broken.yaml', 'kind: Job\nmetadata: {'],
          ]),
        ],
        ['apps/web/shop', new Map([['apps/web/shop/notes.yaml', 'a: b\n']])],
      ]),
    );
    const train = parsed.get('apps/ml/train')!;
    expect(train.workloads).toEqual([
      {
        id: 'ml/train',
        namespace: 'ml',
        name: 'train',
        path: 'apps/ml/train/job.yaml',
        resourceName: 'nvidia.com/gpu',
        replicas: 2,
        perReplica: 1,
        // What its pods ask of a node: the snapshot places it by that.
        scheduling: {
          nodeSelector: {},
          affinityTerms: [],
          tolerations: [],
          gpuResources: { 'nvidia.com/gpu': 1 },
        },
      },
    ]);
    expect(train.objects.map(o => [o.kind, o.name, o.replicas])).toEqual([
      ['Job', 'train', 2],
    ]);
    expect(train.skipped.map(s => s.path)).toEqual([
      'apps/ml/train/broken.yaml',
    ]);
    expect(parsed.get('apps/web/shop')).toEqual({
      workloads: [],
      objects: [],
      skipped: [],
    });
  });
  it("counts a GPU workload's replicas as its kustomization deploys them: the team's patch to 2 over the manifest's 3, under the product's GPU patch", async () => {
    const folder = 'apps/ml/recommender-api';
    const parsed = await parseWorkloadFolders(
      ctx,
      new Map([
        [
          folder,
          new Map([
            [
              `${folder}/kustomization.yaml`,
              'resources: [deployment.yaml]\npatches:\n  - path: replicas.yaml\n  - path: gpu-patch.yaml\n',
            ],
            [
              `${folder}/deployment.yaml`,
              'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  replicas: 3\n  template: { spec: { containers: [{ name: api }] } }\n',
            ],
            [
              `${folder}/replicas.yaml`,
              'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  replicas: 2\n',
            ],
            [
              `${folder}/gpu-patch.yaml`,
              'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: recommender-api, namespace: ml }\nspec:\n  template: { spec: { containers: [{ name: api, resources: { limits: { nvidia.com/gpu.shared: 1 } } }] } }\n',
            ],
          ]),
        ],
      ]),
    );
    const { workloads, objects } = parsed.get(folder)!;
    expect(objects.map(o => o.replicas)).toEqual([2]);
    expect(workloads.map(w => [w.id, w.replicas])).toEqual([
      ['ml/recommender-api', 2],
    ]);
  });

  it('parses each file once yet still lists the workload object of a file whose other document is broken', async () => {
    const deployment =
      'apiVersion: apps/v1\nkind: Deployment\nmetadata: { name: web }\nspec:\n  replicas: 3\n  template: { spec: { containers: [{ name: w }] } }\n';
    const parsed = await parseWorkloadFolders(
      ctx,
      new Map([
        [
          'apps/web/shop',
          new Map([
            ['apps/web/shop/deployment.yaml', deployment],
            [
              'apps/web/shop/mixed.yaml',
              `${deployment.replace('web', 'api')}---\nkind: [broken\n`,
            ],
          ]),
        ],
      ]),
    );
    const shop = parsed.get('apps/web/shop')!;
    // The GPU reader skips the broken file whole; the workload objects keep
    // its readable document, as a kustomize user would see it deployed.
    expect(shop.skipped.map(s => s.path)).toEqual(['apps/web/shop/mixed.yaml']);
    expect(shop.objects.map(o => [o.kind, o.name, o.replicas])).toEqual([
      ['Deployment', 'api', 3],
      ['Deployment', 'web', 3],
    ]);
  });

  it("reads another file of a cluster folder by the cluster folder rules: the product's pools only, ConfigMaps of NVIDIA configs, a syntax error once", () => {
    const path = 'clusters/dev/karpenter/gpu.yaml';
    const adopted = nodePool.replace(
      'metadata:\n  name: gpu-a100-mig\n',
      'metadata:\n  name: gpu-a100-mig\n  annotations: {gpu.backstage.io/sharing-mode: mig, gpu.backstage.io/requests: ""}\n',
    );
    const configs = { devicePluginConfigs: {}, migConfigs: {} };
    expect(parseClusterFolderPoolFile(ctx, path, adopted, configs)).toEqual({
      pools: [expect.objectContaining({ name: 'gpu-a100-mig', path })],
      // Its nodes as the scheduler sees them: where workloads land.
      shapes: [
        expect.objectContaining({
          pool: 'gpu-a100-mig',
          kind: 'NodePool',
          resources: [{ name: 'nvidia.com/mig-1g.5gb' }],
        }),
      ],
      // No GPU NodePool the team wrote by hand in this file, no NFD rule, no NodeOverlay.
      handWrittenShapes: [],
      nodeFeatureRules: [],
      overlays: [],
      otherNodePools: [],
      skipped: [],
    });
    // The same pool, never adopted: a name, not a pool — and GPU nodes the
    // team's own NodePool launches (a place GPU pods may land, not a pool).
    expect(parseClusterFolderPoolFile(ctx, path, nodePool, configs)).toEqual({
      pools: [],
      shapes: [],
      otherNodePools: ['gpu-a100-mig'],
      handWrittenShapes: [
        expect.objectContaining({
          pool: 'gpu-a100-mig',
          kind: 'NodePool',
          resources: [{ name: 'nvidia.com/mig-1g.5gb' }],
        }),
      ],
      nodeFeatureRules: [],
      overlays: [],
      skipped: [],
    });
    const configMap = `apiVersion: v1
kind: ConfigMap
metadata: {name: mig-parted}
data:
  config.yaml: |
    version: v1
    mig-configs:
      all-1g.5gb: [{devices: all, mig-enabled: true, mig-devices: {1g.5gb: 7}}]
`;
    expect(parseConfigMapFile(path, configMap)).toEqual({
      configMaps: [
        {
          name: 'mig-parted',
          path,
          devicePluginConfigs: {},
          migConfigs: { 'all-1g.5gb': [expect.any(Object)] },
        },
      ],
      skipped: [],
    });
    // Neither: never parsed.
    const app = 'kind: Deployment\nspec: [\n';
    expect(parseConfigMapFile(path, app)).toEqual({
      configMaps: [],
      skipped: [],
    });
    expect(parseClusterFolderPoolFile(ctx, path, app, configs).skipped).toEqual(
      [],
    );
    // Both, broken: the pool parse reports it, the ConfigMap parse does not.
    const broken = 'kind: NodePool\n---\nkind: ConfigMap\ndata: {flags: [\n';
    expect(
      parseClusterFolderPoolFile(ctx, path, broken, configs).skipped,
    ).toHaveLength(1);
    expect(parseConfigMapFile(path, broken).skipped).toEqual([]);
  });
});
