/**
 * A platform team's round on an EKS repository whose GPU pool was written
 * from the Data on EKS blueprint and whose workloads choose their nodes
 * themselves (`test/fixtures/eks-overlays-repo`, origins in its README): a
 * Deployment in a kustomize base with its overlay's own node affinity, and a
 * plain Job with required affinity on instance family and size. Validate on
 * the untouched repository, import, bootstrap, then requests and their
 * releases; every request's pods land on the pool the plan chose and on no
 * other.
 */
import { parseAllDocuments, parseDocument } from 'yaml';
import { builtinCatalog, parseGpuRequest } from '@gpu-gitops/plugin-gpu-common';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import {
  bootstrapShape,
  expectLandsOnPlannedPool,
  importShape,
  karpenterAwsShapeCluster,
  shapeRequest,
  withShapeRepository,
  expectCleanRound,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const POOL_FILE = 'clusters/staging/karpenter/g5-gpu-karpenter.yaml';

const cluster = karpenterAwsShapeCluster('staging', 'g5-gpu-karpenter');

const request = shapeRequest;

describe('the EKS repository with kustomize overlays and workloads that choose their nodes', () => {
  describe('imported', () => {
    let tree: FsRepoTree;
    withShapeRepository(
      'eks-overlays-repo',
      'gpu-shape-eks-import-',
      checkout => {
        ({ tree } = checkout);
      },
    );

    it('validate finds nothing wrong in the untouched repository', async () => {
      expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    });

    it('the import records the overlay’s Deployment as deployed: its namespace and its replicas: entry, not the base’s', async () => {
      const imported = await importShape(tree, cluster);
      expect(imported.changeSet.changes.map(c => c.path).sort()).toEqual([
        POOL_FILE,
        'requests/ml/finetune.yaml',
        'requests/ml/triton.yaml',
      ]);
      const [pool] = parseAllDocuments((await tree.readFile(POOL_FILE))!).map(
        doc => doc.toJS(),
      );
      expect(pool.metadata.annotations['gpu.backstage.io/requests']).toBe(
        'ml/finetune=1, ml/triton=2',
      );
      const triton = parseDocument(
        (await tree.readFile('requests/ml/triton.yaml'))!,
      ).toJS();
      expect(triton.spec.gpu.replicas).toBe(2);
    });

    it('once bootstrapped, the imported Deployment’s record renders again on its pool, its pods landing there only', async () => {
      await bootstrapShape(tree, cluster);
      const record = parseGpuRequest(
        parseDocument((await tree.readFile('requests/ml/triton.yaml'))!).toJS(),
      );
      const change = await buildRequestChange({
        tree,
        dir: tree.root,
        request: record,
        cluster,
        catalog: builtinCatalog,
      });
      expect(change.plan.pool.name).toBe('g5-gpu-karpenter');
      expectLandsOnPlannedPool(change, 'g5-gpu-karpenter');
    });
  });

  describe('bootstrapped', () => {
    let tree: FsRepoTree;
    let bootstrapped: Record<string, string>;

    withShapeRepository('eks-overlays-repo', 'gpu-shape-eks-', checkout => {
      ({ tree } = checkout);
    });
    beforeAll(async () => {
      ({ bootstrapped } = await bootstrapShape(tree, cluster));
    });

    it.each([
      [
        'the overlay’s Deployment',
        'triton',
        { kind: 'Deployment', name: 'triton' },
        { model: 'a10g', sharing: 'time-slicing', replicas: 2, vramGiB: 10 },
      ],
      [
        'the plain Job',
        'finetune',
        { kind: 'Job', name: 'finetune' },
        { model: 'a10g', sharing: 'exclusive', replicas: 1, vramGiB: 20 },
      ],
    ])(
      '%s gets its GPUs on the pool the plan chose and on no other, validates clean, and its release gives every file back',
      async (_what, name, existing, gpu) => {
        await expectCleanRound(
          tree,
          request(name, { gpu, workload: { existing } }),
          cluster,
          bootstrapped,
        );
      },
    );

    it('a new workload lands on its new pool only, validates clean, and its release gives every file back', async () => {
      await expectCleanRound(
        tree,
        request('embedder', {
          gpu: { model: 'l4', sharing: 'exclusive', replicas: 1, vramGiB: 20 },
          workload: { image: 'ghcr.io/acme/embedder:1.0' },
        }),
        cluster,
        bootstrapped,
      );
    });
  });
});
