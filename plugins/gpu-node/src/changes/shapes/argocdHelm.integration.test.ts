/**
 * A platform team's round on an Argo CD app of apps with a Helm chart folder
 * and the standalone NVIDIA device plugin (`test/fixtures/argocd-helm-repo`,
 * origins in its README): validate on the untouched repository, import,
 * bootstrap, then GPUs for the team's plain Job and CronJob: a DRA claim is
 * refused there, since the standalone device plugin runs on every GPU node
 * and no DRA driver is deployed.
 */
import { parseAllDocuments } from 'yaml';
import { isGpuInputError } from '@gpu-gitops/plugin-gpu-common';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import {
  bootstrapShape,
  importShape,
  karpenterAwsShapeCluster,
  refusalOf,
  shapeRequest,
  snapshot,
  withShapeRepository,
  expectOneIssue,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const cluster = karpenterAwsShapeCluster('prod', 'gpu');

const request = shapeRequest;

describe('the Argo CD app of apps with a Helm chart folder', () => {
  let tree: FsRepoTree;
  let bootstrapped: Record<string, string>;

  withShapeRepository('argocd-helm-repo', 'gpu-shape-argocd-', checkout => {
    ({ tree } = checkout);
  });

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
  });

  it('the import adopts the team’s pool as the device plugin runs it: 10 time slices per GPU (its release’s default config), not whole GPUs', async () => {
    await importShape(tree, cluster);
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
      ({ bootstrapped } = await bootstrapShape(tree, cluster));
    });

    it('refuses whole GPUs for the team’s Job, saying which device plugin shares them and where, and writes nothing', async () => {
      const error = await refusalOf(
        tree,
        request('embed-corpus', {
          gpu: { model: 't4', sharing: 'exclusive', replicas: 2, vramGiB: 14 },
          workload: { existing: { kind: 'Job', name: 'embed-corpus' } },
        }),
        cluster,
      );
      expectOneIssue(error, {
        path: 'spec.gpu.sharing',
        rule: 'device-plugin-shares-by-default',
      });
      expect(error.issues[0].message).toContain(
        'which shares every GPU (time-slicing, 10 per GPU, as `nvidia.com/gpu`: its default config `default` (`config.map` of Argo CD Application `argocd/nvidia-device-plugin`',
      );
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it('refuses GPUs for the Deployment its Helm chart folder renders, naming the chart, and writes nothing', async () => {
      const error = await refusalOf(
        tree,
        request('vllm', {
          gpu: { model: 'l4', sharing: 'dra', replicas: 1, vramGiB: 20 },
          workload: { existing: { kind: 'Deployment', name: 'vllm' } },
        }),
        cluster,
      );
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
        const error = await refusalOf(
          tree,
          request(name, {
            gpu: { model: 'l4', sharing: 'dra', replicas, vramGiB: 20 },
            workload: { existing: { kind, name } },
          }),
          cluster,
        );
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
