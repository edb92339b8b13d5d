/**
 * The Flux repository on Karpenter v1alpha5 (`test/fixtures/flux-v1alpha5-repo`,
 * origins in its README), whose team also wrote NodeOverlays, as Karpenter's
 * NodeOverlay docs (v1.14) show them: one scoped to its GPU pool by
 * `karpenter.sh/nodepool` for 1-GPU nodes, counting the 4 slices the GPU
 * Operator's default config gives; one for every 4-GPU g4dn node, counting 8
 * where the nodes advertise 16; one for another instance family. A
 * time-sliced request on the adopted pool must neither duplicate nor
 * contradict the two that reach it (Karpenter does not apply one of two
 * same-weight overlays that set the same capacity): it adds only the overlay
 * for the GPU count they leave out, says which of theirs is wrong, and its
 * release gives every file back.
 */
import { parseAllDocuments } from 'yaml';
import { FsRepoTree } from '../../repo/tree';
import {
  bootstrapShape,
  checkoutShapeRepository,
  importShape,
  karpenterAwsShapeCluster,
  removeCheckout,
  requestThenRelease,
  shapeRequest,
  snapshot,
  TIME_SLICING_CONFIG_MAP,
} from './__testUtils__/shapeRound';

// Import, bootstrap, the request and its release each build with the real
// kustomize on a shared CI machine.
jest.setTimeout(240_000);

const POOL_FILE = 'clusters/prod/karpenter/nvidia-gpu.yaml';
const OVERLAYS_FILE = 'clusters/prod/karpenter/gpu-slices.yaml';

/**
 * The team's overlays: one scoped to the pool, right for 1-GPU nodes (4
 * slices); one for every 4-GPU g4dn node, unscoped, wrong (8, not 16); one
 * for g6f nodes, which EC2 reports without a GPU (the Karpenter docs'
 * NodeOverlay example), and which reaches no node of this g4dn pool.
 */
const TEAM_OVERLAYS = `# Karpenter counts slices, not GPUs, on our time-sliced nodes.
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: gpu-slices-1gpu
spec:
  requirements:
    - key: karpenter.sh/nodepool
      operator: In
      values: ["nvidia-gpu"]
    - key: karpenter.k8s.aws/instance-gpu-count
      operator: In
      values: ["1"]
  capacity:
    nvidia.com/gpu: "4"
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: g4dn-slices-4gpu
spec:
  requirements:
    - key: karpenter.k8s.aws/instance-family
      operator: In
      values: ["g4dn"]
    - key: karpenter.k8s.aws/instance-gpu-count
      operator: In
      values: ["4"]
  capacity:
    nvidia.com/gpu: "8"
---
apiVersion: karpenter.sh/v1alpha1
kind: NodeOverlay
metadata:
  name: g6f-fractional-gpu
spec:
  requirements:
    - key: karpenter.k8s.aws/instance-family
      operator: In
      values: ["g6f"]
  capacity:
    nvidia.com/gpu: "1"
`;

const cluster = karpenterAwsShapeCluster('prod', 'default', {
  devicePluginConfigMap: TIME_SLICING_CONFIG_MAP,
});

async function withTeamOverlays(): Promise<FsRepoTree> {
  const { tree } = await checkoutShapeRepository(
    'flux-v1alpha5-repo',
    'gpu-shape-overlays-',
  );
  await tree.writeFile(OVERLAYS_FILE, TEAM_OVERLAYS);
  await tree.writeFile(
    'clusters/prod/karpenter/kustomization.yaml',
    `${(await tree.readFile('clusters/prod/karpenter/kustomization.yaml'))!}  - gpu-slices.yaml\n`,
  );
  return tree;
}

describe('the Flux repository on Karpenter v1alpha5 with NodeOverlays its team wrote', () => {
  let tree: FsRepoTree;
  let bootstrapped: Record<string, string>;
  beforeAll(async () => {
    tree = await withTeamOverlays();
    await importShape(tree, cluster);
    ({ bootstrapped } = await bootstrapShape(tree, cluster));
  });
  afterAll(() => removeCheckout(tree));

  it('a time-sliced request on the adopted pool adds only the overlay for the GPU count theirs leave out, names the wrong one, and its release gives every file back', async () => {
    const { change } = await requestThenRelease(
      tree,
      shapeRequest('embed', {
        gpu: {
          model: 't4',
          sharing: 'time-slicing',
          replicas: 1,
          vramGiB: 3,
          slicesPerGpu: 4,
        },
        workload: { image: 'ghcr.io/acme/embed:1.0' },
      }),
      cluster,
    );
    expect(change.plan.pool.name).toBe('nvidia-gpu');
    expect(change.plan.sharing.onOperatorDefault).toBe(true);
    expect(change.verification?.landsOn).toEqual(['nvidia-gpu']);
    const poolWrite = change.changeSet.changes.find(c => c.path === POOL_FILE);
    const written =
      poolWrite && 'content' in poolWrite
        ? parseAllDocuments(poolWrite.content).map(doc => doc.toJS())
        : [];
    expect(
      written
        .filter(o => o.kind === 'NodeOverlay')
        .map(o => [o.metadata.name, o.spec.capacity]),
    ).toEqual([['nvidia-gpu-8gpu', { 'nvidia.com/gpu': '32' }]]);
    expect(change.changeSet.changes.map(c => c.path)).not.toContain(
      OVERLAYS_FILE,
    );
    expect(change.plan.explanation.join('\n')).toContain(
      'NodeOverlay "gpu-slices-1gpu", written by hand, already tells Karpenter 4 nvidia.com/gpu for nodes of 1 GPU(s) of pool nvidia-gpu',
    );
    expect(change.plan.warnings.join('\n')).toContain(
      'NodeOverlay "g4dn-slices-4gpu", written by hand, tells Karpenter 8 nvidia.com/gpu for nodes of 4 GPU(s) of pool nvidia-gpu, while they advertise 16',
    );
    expect(
      [...change.plan.explanation, ...change.plan.warnings].join('\n'),
    ).not.toContain('g6f-fractional-gpu');
    expect(await snapshot(tree)).toEqual(bootstrapped);
  });
});
