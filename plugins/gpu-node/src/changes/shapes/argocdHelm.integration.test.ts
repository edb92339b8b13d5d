/**
 * A platform team's round on an Argo CD app of apps with a Helm chart folder
 * and the standalone NVIDIA device plugin (`test/fixtures/argocd-helm-repo`,
 * origins in its README): validate on the untouched repository, import,
 * bootstrap, then GPUs for the team's plain Job and CronJob: a DRA claim is
 * refused there, since the standalone device plugin runs on every GPU node
 * and no DRA driver is deployed.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import { parseAllDocuments } from 'yaml';
import {
  builtinCatalog,
  isGpuInputError,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { buildImportChange } from '../../import/buildImportChange';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildBootstrapChangeSet } from '../bootstrap/bootstrapChangeSet';
import { buildRequestChange } from '../buildRequestChange';
import { writeChangeSet } from '../stagedTree';
import { snapshot, shapeRequest } from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const FIXTURE = path.join(
  __dirname,
  '../../../../../test/fixtures/argocd-helm-repo',
);
const OWNER = 'group:default/ml-platform';

const cluster = resolveClusterProfile({
  name: 'prod',
  provider: 'aws-karpenter',
  karpenterVersion: '1.8.0',
  nodeClass: { group: 'karpenter.k8s.aws', kind: 'EC2NodeClass', name: 'gpu' },
  nodeOverlay: true,
  migStrategy: 'single',
});

const request = shapeRequest;

describe('the Argo CD app of apps with a Helm chart folder', () => {
  let tree: FsRepoTree;
  let bootstrapped: Record<string, string>;

  beforeAll(async () => {
    const dir = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-shape-argocd-'));
    await fs.cp(FIXTURE, dir, { recursive: true });
    await fs.rm(path.join(dir, 'README.md'));
    tree = new FsRepoTree(dir);
  });
  afterAll(() => fs.rm(tree.root, { recursive: true, force: true }));

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
  });

  it('the import adopts the team’s pool as the device plugin runs it: 10 time slices per GPU (its release’s default config), not whole GPUs', async () => {
    const imported = await buildImportChange({
      tree,
      dir: tree.root,
      cluster,
      catalog: builtinCatalog,
      owner: OWNER,
    });
    await writeChangeSet(tree, imported.changeSet);
    const [pool] = parseAllDocuments(
      (await tree.readFile('clusters/prod/karpenter/nvidia-gpu.yaml'))!,
    ).map(doc => doc.toJS());
    expect(pool.metadata.annotations).toEqual({
      'gpu.backstage.io/requests': '',
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu',
      'gpu.backstage.io/slices-per-gpu': '10',
    });
  });

  describe('imported and bootstrapped', () => {
    beforeAll(async () => {
      const changeSet = await buildBootstrapChangeSet(tree, cluster, {
        operatorChartVersion: 'v26.7.0',
        binPacking: false,
      });
      await writeChangeSet(tree, changeSet);
      bootstrapped = await snapshot(tree);
    });

    it('refuses whole GPUs for the team’s Job, saying which device plugin shares them and where, and writes nothing', async () => {
      const error = await buildRequestChange({
        tree,
        dir: tree.root,
        request: request('embed-corpus', {
          gpu: { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 14 },
          workload: { existing: { kind: 'Job', name: 'embed-corpus' } },
        }),
        cluster,
        catalog: builtinCatalog,
      }).catch(e => e);
      expect(isGpuInputError(error)).toBe(true);
      expect(error.issues).toEqual([
        expect.objectContaining({
          path: 'spec.gpu.sharing',
          rule: 'device-plugin-shares-by-default',
        }),
      ]);
      expect(error.issues[0].message).toContain(
        'which shares every GPU (time-slicing, 10 per GPU, as `nvidia.com/gpu`: its default config `default` (`config.map` of Argo CD Application `argocd/nvidia-device-plugin`',
      );
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it('refuses GPUs for the Deployment its Helm chart folder renders, naming the chart, and writes nothing', async () => {
      const error = await buildRequestChange({
        tree,
        dir: tree.root,
        request: request('vllm', {
          gpu: { model: 'l4', sharing: 'dra', replicas: 1, vramGiB: 20 },
          workload: { existing: { kind: 'Deployment', name: 'vllm' } },
        }),
        cluster,
        catalog: builtinCatalog,
      }).catch(e => e);
      expect(isGpuInputError(error)).toBe(true);
      expect(error.issues).toEqual([
        {
          path: 'spec.workload.existing.name',
          rule: 'workload-helm',
          message:
            'Deployment "vllm" in namespace "ml" is rendered by Helm (the chart in charts/vllm/, whose templates are not YAML until Helm renders them): its manifest is not in the repository, so there is nothing to patch. Set the GPU resources, nodeSelector and tolerations in the chart\'s values, or request GPUs for a new workload (spec.workload.image).',
        },
      ]);
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it.each([
      ['Job', 'embed-corpus', 2],
      ['CronJob', 'nightly-eval', 1],
    ])(
      'refuses a DRA claim for the team’s %s %s: the standalone device plugin runs on every GPU node and no DRA driver is deployed, and writes nothing',
      async (kind, name, replicas) => {
        const error = await buildRequestChange({
          tree,
          dir: tree.root,
          request: request(name, {
            gpu: { model: 'l4', sharing: 'dra', replicas, vramGiB: 20 },
            workload: { existing: { kind, name } },
          }),
          cluster,
          catalog: builtinCatalog,
        }).catch(e => e);
        const message = String(error?.message ?? error);
        expect(message).toContain(
          'the nodes of NodePool gpu-l4-dra are a DRA pool, but a device plugin runs there too (the `nvidia-device-plugin` Helm chart installed by Argo CD Application `argocd/nvidia-device-plugin`',
        );
        expect(message).toContain(
          "no DRA driver publishes the GPUs of the nodes of NodePool gpu-l4-dra (the repository deploys none), so no ResourceClaim of DeviceClass gpu.nvidia.com is ever allocated there; install NVIDIA's DRA driver",
        );
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );
  });
});
