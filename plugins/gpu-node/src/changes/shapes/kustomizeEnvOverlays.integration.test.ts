/**
 * A platform team's round on a repository of kustomize bases with
 * per-environment overlays (`test/fixtures/kustomize-env-overlays-repo`,
 * origins in its README): the GPU NodePool of the Karpenter Blueprints in
 * `karpenter/base/`, its `overlays/prod` raising its limits, adding a taint
 * (a strategic-merge patch, which replaces the CRD's list) and narrowing it
 * to g5 (a JSON 6902 patch); Karpenter's GPU example Deployment in
 * `apps/gpu-nvidia/base/`, its `overlays/prod` setting replicas and patching
 * its nodeSelector and tolerations. What the cluster runs is what the
 * overlays build, so every landing is checked on the built objects: the
 * product's patch must win over the overlay's, and a field it writes must
 * not be hidden by the overlay's own.
 */
import path from 'node:path';
import { kustomizeBuild } from '../../kustomize';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import {
  bootstrapShape,
  expectCleanRound,
  expectLandsOnPlannedPool,
  expectOneIssue,
  importShape,
  karpenterAwsShapeCluster,
  refusalOf,
  requestThenRelease,
  shapeRequest,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const BASE_POOL_FILE = 'clusters/prod/karpenter/base/gpu-nodepool.yaml';
const DEPLOYMENT_FILE = 'apps/gpu-nvidia/base/gpu-nvidia.yaml';
const PROD_OVERLAY = 'apps/gpu-nvidia/overlays/prod';

const cluster = karpenterAwsShapeCluster('prod', 'gpu');

const GPU_NVIDIA = { existing: { kind: 'Deployment', name: 'gpu-nvidia' } };

describe('the repository of kustomize bases with per-environment overlays: the GPU pool and the GPU workload', () => {
  let tree: FsRepoTree;
  let original: Record<string, string>;
  withShapeRepository('kustomize-env-overlays-repo', 'gpu-shape-envs-', c => {
    ({ tree, original } = c);
  });

  /** The Deployment as the prod overlay builds it. */
  const builtDeployment = async () => {
    const objects = await kustomizeBuild(path.join(tree.root, PROD_OVERLAY));
    return objects.find(o => o.kind === 'Deployment') as any;
  };

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
  });

  it('the import leaves the base’s pool, which the prod overlay patches, and records no workload on it, saying why; it writes nothing', async () => {
    const imported = await importShape(tree, cluster);
    expect(imported.changeSet.changes).toEqual([]);
    expect(imported.findings).toEqual([
      expect.objectContaining({
        kind: 'note',
        path: BASE_POOL_FILE,
        message: expect.stringContaining(
          'not adopted as a GPU pool: clusters/prod/karpenter/overlays/prod/',
        ),
      }),
      expect.objectContaining({
        kind: 'not-understood',
        path: DEPLOYMENT_FILE,
        message: expect.stringContaining(
          'its pods land on pool gpu, which the import does not adopt',
        ),
      }),
    ]);
    expect(await snapshot(tree)).toEqual(original);
  });

  describe('bootstrapped', () => {
    let bootstrapped: Record<string, string>;
    beforeAll(async () => {
      ({ bootstrapped } = await bootstrapShape(tree, cluster));
    });

    it('validate finds nothing wrong once bootstrapped', async () => {
      expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    });

    it.each([
      [
        'whole A10G GPUs',
        { model: 'a10g', sharing: 'exclusive', replicas: 2, vramGiB: 20 },
        ['intent: gpu'],
      ],
      [
        'whole L4 GPUs, off the g5 family the overlay’s patch asks for',
        { model: 'l4', sharing: 'exclusive', replicas: 1, vramGiB: 20 },
        ['intent: gpu', 'karpenter.k8s.aws/instance-family: g5'],
      ],
      [
        'A10G GPUs time-sliced 4 ways',
        { model: 'a10g', sharing: 'time-slicing', replicas: 4, vramGiB: 5 },
        ['intent: gpu'],
      ],
    ])(
      '%s for the overlay’s Deployment: the patch goes into the overlay that deploys it, its pods land on the planned pool only, and the release gives every file back',
      async (_what, gpu, removedSelectors) => {
        const { change } = await expectCleanRound(
          tree,
          shapeRequest('gpu-nvidia', { gpu, workload: GPU_NVIDIA }),
          cluster,
          bootstrapped,
        );
        expect(change.plan.pool.name).not.toBe('gpu');
        const patched = change.changeSet.changes
          .map(c => c.path)
          .filter(p => p.startsWith('apps/'));
        expect(patched.every(p => p.startsWith(`${PROD_OVERLAY}/`))).toBe(true);
        for (const selector of removedSelectors) {
          expect(change.plan.warnings).toContainEqual(
            expect.stringContaining(
              `The workload's nodeSelector \`${selector}\` is removed for this request`,
            ),
          );
        }
      },
    );

    it('as the prod overlay builds it while merged, the Deployment runs the requested replicas (not the overlay’s `replicas:` count), selects the planned pool, keeps the overlay’s own tolerations and asks for the planned GPUs', async () => {
      let deployment: any;
      const { change } = await requestThenRelease(
        tree,
        shapeRequest('gpu-nvidia', {
          gpu: {
            model: 'a10g',
            sharing: 'exclusive',
            replicas: 3,
            vramGiB: 20,
          },
          workload: GPU_NVIDIA,
        }),
        cluster,
        async () => {
          deployment = await builtDeployment();
        },
      );
      expectLandsOnPlannedPool(change);
      const pod = deployment.spec.template.spec;
      expect(deployment.metadata.namespace).toBe('ml');
      expect(deployment.spec.replicas).toBe(3);
      expect(pod.nodeSelector).toEqual({
        'karpenter.k8s.aws/instance-family': 'g5',
        'karpenter.sh/nodepool': change.plan.pool.name,
      });
      expect(pod.tolerations).toEqual(
        expect.arrayContaining([
          expect.objectContaining({ key: 'env', value: 'prod' }),
        ]),
      );
      expect(pod.containers[0].resources.limits['nvidia.com/gpu']).toBe('1');
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });

    it('refuses MIG on the A10G, which has none, and writes nothing', async () => {
      const error = await refusalOf(
        tree,
        shapeRequest('gpu-nvidia', {
          gpu: { model: 'a10g', sharing: 'mig', replicas: 2, vramGiB: 5 },
          workload: GPU_NVIDIA,
        }),
        cluster,
      );
      expectOneIssue(error, {
        path: 'spec.gpu.model',
        rule: 'mig-unsupported',
      });
      expect(await snapshot(tree)).toEqual(bootstrapped);
    });
  });
});
