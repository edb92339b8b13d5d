/**
 * A platform team's round on the Karpenter Blueprints repository's GPU
 * time-slicing scenario in Karpenter v1 (`test/fixtures/karpenter-blueprints-v1-repo`,
 * origins in its README): one tainted NodePool `gpu-slices` of instance
 * categories g and p (eleven GPU models) on a Bottlerocket EC2NodeClass whose
 * user data time-slices every GPU 4 ways as `nvidia.com/gpu`, four unscoped
 * hand-written NodeOverlays telling Karpenter so (4 per GPU on nodes of 1, 2,
 * 4 and 8 GPUs), and a Deployment selecting the pool's template labels and
 * tolerating its taint. Validate on the untouched repository, import,
 * bootstrap, then requests and their releases; every request's pods land on
 * the pool the plan chose and on no other, and what Bottlerocket's device
 * plugin cannot serve is refused.
 */
import { parseAllDocuments } from 'yaml';
import type { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import {
  bootstrapShape,
  expectCleanRound,
  expectOneIssue,
  expectOnlyChanged,
  importShape,
  karpenterAwsShapeCluster,
  refusalOf,
  shapeRequest,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// Import, bootstrap, requests and releases each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const POOL_FILE = 'clusters/blueprints/karpenter/gpu-nodepool.yaml';
const NODE_CLASS_FILE = 'clusters/blueprints/karpenter/gpu-nodeclass.yaml';

const cluster = karpenterAwsShapeCluster('blueprints', 'gpu-bottlerocket');

/** The Blueprints' GPU NodePool as the import left it. */
async function importedPool(tree: FsRepoTree) {
  const [pool] = parseAllDocuments((await tree.readFile(POOL_FILE))!).map(doc =>
    doc.toJS(),
  );
  return pool;
}

/** The files a request writes that hold a NodeOverlay. */
function overlayFilesWritten(change: {
  changeSet: { changes: Array<{ path: string; content?: string }> };
}): string[] {
  return change.changeSet.changes
    .filter(c => c.content !== undefined && /kind: NodeOverlay/.test(c.content))
    .map(c => c.path);
}

const SLICES = {
  existing: { kind: 'Deployment', name: 'workload-gpu-slices' },
};

describe('the Karpenter Blueprints repository: a Bottlerocket pool time-sliced 4 ways, its NodeOverlays written by hand', () => {
  let tree: FsRepoTree;
  let original: Record<string, string>;
  withShapeRepository(
    'karpenter-blueprints-v1-repo',
    'gpu-shape-blueprints-',
    checkout => {
      ({ tree, original } = checkout);
    },
  );

  it('validate finds nothing wrong in the untouched repository', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
  });

  it('the import adopts the pool as Bottlerocket shares it, 4 slices per GPU, with no model, and records no workload of it, saying why', async () => {
    const imported = await importShape(tree, cluster);
    expect(imported.changeSet.changes.map(c => c.path)).toEqual([POOL_FILE]);
    const pool = await importedPool(tree);
    expect(pool.metadata.annotations).toMatchObject({
      'gpu.backstage.io/requests': '',
      'gpu.backstage.io/sharing-mode': 'time-slicing',
      'gpu.backstage.io/resource-name': 'nvidia.com/gpu',
      'gpu.backstage.io/slices-per-gpu': '4',
      // `nvidia.com/gpu: 40` counts slices (the overlays, which name no
      // pool, give 4 per GPU on every machine): the team's floor is 10 GPUs.
      'gpu.backstage.io/limit-floor': '10',
    });
    expect(pool.spec.limits['nvidia.com/gpu']).toBe(40);
    const unrecorded = imported.findings.filter(
      f => f.kind === 'not-understood',
    );
    expect(unrecorded.map(f => f.path)).toEqual([
      'apps/ml/gpu-slices/workload-gpu-slices.yaml',
    ]);
    expect(unrecorded[0].message).toContain(
      'pool gpu-slices launches GPUs of 11 models',
    );
  });

  it('validate finds nothing wrong once imported — the team’s overlays tell Karpenter what the adopted pool advertises — and the import gave back nothing else', async () => {
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
    await expectOnlyChanged(tree, original, [POOL_FILE]);
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
      ['a10g', 5],
      ['t4', 3],
    ])(
      'time-slices the Deployment on %s with the node class’s own 4 slices: a new pool its pods alone land on, covered by the team’s overlays (the product adds none), validates clean, and the release gives every file back',
      async (model, vramGiB) => {
        const { change } = await expectCleanRound(
          tree,
          shapeRequest('workload-gpu-slices', {
            gpu: { model, sharing: 'time-slicing', replicas: 4, vramGiB },
            workload: SLICES,
          }),
          cluster,
          bootstrapped,
        );
        expect(change.plan.pool.name).not.toBe('gpu-slices');
        expect(change.plan.resourceName).toBe('nvidia.com/gpu');
        expect(change.plan.sharing).toMatchObject({
          slicesPerGpu: 4,
          sharedByProvider: true,
        });
        expect(overlayFilesWritten(change)).toEqual([]);
        expect(change.plan.warnings).toEqual(
          expect.arrayContaining([
            expect.stringContaining(
              "The workload's nodeSelector `nvidia.com/gpu.present: true` is removed for this request",
            ),
          ]),
        );
      },
    );

    it.each([
      [
        'whole GPUs',
        'exclusive',
        'device-plugin-shares-by-default',
        'set device-sharing-strategy = "none" in that node class\'s user data',
      ],
      [
        'MPS',
        'mps',
        'device-plugin-bottlerocket',
        'takes one sharing setting for every node of the node class from its user data',
      ],
    ])(
      'refuses %s — Bottlerocket’s device plugin time-slices every GPU of the node class — naming the node class’s file, and writes nothing',
      async (_what, sharing, rule, words) => {
        const error = await refusalOf(
          tree,
          shapeRequest('workload-gpu-slices', {
            gpu: { model: 'a10g', sharing, replicas: 1, vramGiB: 20 },
            workload: SLICES,
          }),
          cluster,
        );
        expectOneIssue(error, { path: 'spec.gpu.sharing', rule });
        expect(error.issues[0].message).toContain(words);
        expect(error.issues[0].message).toContain(NODE_CLASS_FILE);
        expect(await snapshot(tree)).toEqual(bootstrapped);
      },
    );
  });
});

describe('the same repository with its NodeOverlays in a folder of no cluster (`infrastructure/karpenter/`, applied to every cluster)', () => {
  let tree: FsRepoTree;
  withShapeRepository(
    'karpenter-blueprints-v1-repo',
    'gpu-shape-blueprints-shared-',
    checkout => {
      ({ tree } = checkout);
    },
  );

  it('the import still reads the pool’s limit in the overlays’ units: a floor of 10 GPUs, not 40', async () => {
    const overlays =
      'clusters/blueprints/karpenter/node-overlay-gpu-slices.yaml';
    const kustomization = 'clusters/blueprints/karpenter/kustomization.yaml';
    await tree.writeFile(
      'infrastructure/karpenter/node-overlay-gpu-slices.yaml',
      (await tree.readFile(overlays))!,
    );
    await tree.writeFile(
      'infrastructure/karpenter/kustomization.yaml',
      'resources:\n  - node-overlay-gpu-slices.yaml\n',
    );
    await tree.deleteFile(overlays);
    await tree.writeFile(
      kustomization,
      (await tree.readFile(kustomization))!.replace(
        '  - node-overlay-gpu-slices.yaml\n',
        '',
      ),
    );
    // Another cluster's overlay, counting 2 per GPU, reaches none of its pools.
    await tree.writeFile(
      'clusters/other/node-overlay.yaml',
      (await tree.readFile(
        'infrastructure/karpenter/node-overlay-gpu-slices.yaml',
      ))!.replace(/nvidia\.com\/gpu: "?(\d+)"?/g, 'nvidia.com/gpu: 2'),
    );

    await importShape(tree, cluster);
    const pool = await importedPool(tree);
    expect(pool.metadata.annotations).toMatchObject({
      'gpu.backstage.io/slices-per-gpu': '4',
      'gpu.backstage.io/limit-floor': '10',
    });
  });

  it('a request, once bootstrapped, finds the team’s overlays in the shared folder cover its new pool: the product writes no NodeOverlay beside them (two of one weight setting one capacity conflict), and the round is clean', async () => {
    const { bootstrapped } = await bootstrapShape(tree, cluster);
    const { change } = await expectCleanRound(
      tree,
      shapeRequest('workload-gpu-slices', {
        gpu: {
          model: 'a10g',
          sharing: 'time-slicing',
          replicas: 4,
          vramGiB: 5,
        },
        workload: SLICES,
      }),
      cluster,
      bootstrapped,
    );
    expect(overlayFilesWritten(change)).toEqual([]);
    expect(change.plan.explanation).toEqual(
      expect.arrayContaining([
        expect.stringContaining(
          'written by hand, already tells Karpenter 4 nvidia.com/gpu for nodes of 1 GPU(s)',
        ),
      ]),
    );
  });
});
