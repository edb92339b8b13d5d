/**
 * The bootstrap of a GKE cluster (`test/fixtures/gke-computeclass-repo`
 * before its GPU folder, origins in its README): GKE runs the NVIDIA driver
 * and device plugin on the nodes of each ComputeClass and partitions MIG
 * GPUs itself, so the bootstrap writes the GPU folder, wired into the
 * cluster's kustomization, and nothing else: no GPU Operator release, no
 * device-plugin or mig-parted config, no DRA driver, no Karpenter, no node
 * class. The bin-packing scheduler when the profile opts in; a GPU Operator
 * the repository deploys named, never edited.
 */
import { promises as fs } from 'node:fs';
import path from 'node:path';
import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { kustomizeBuild } from '../../kustomize/build';
import { FsRepoTree } from '../../repo/tree';
import { checkoutShape, snapshot } from '../shapes/__testUtils__/shapeRound';
import { writeChangeSet } from '../stagedTree';
import { ARGO_GPU_OPERATOR } from './__fixtures__/gpuStackShapes';
import { buildBootstrapChangeSet } from './bootstrapChangeSet';
import { GKE_BOOTSTRAP_NOTE } from './gkeBootstrap';

// The real kustomize builds the bootstrapped cluster.
jest.setTimeout(120_000);

const gke = (override: Record<string, unknown> = {}) =>
  resolveClusterProfile({
    name: 'gke-ml',
    provider: 'gke',
    region: 'us-central1',
    kubernetesVersion: '1.35.2',
    ...override,
  });
const options = { operatorChartVersion: 'v26.7.0', binPacking: false };
const CLUSTER_KUSTOMIZATION = 'clusters/gke-ml/kustomization.yaml';
const GPU_KUSTOMIZATION = 'clusters/gke-ml/gpu/kustomization.yaml';

/** The fixture as it was before its bootstrap: no GPU folder, not listed. */
async function notBootstrapped(): Promise<{
  tree: FsRepoTree;
  fixture: Record<string, string>;
}> {
  const tree = await checkoutShape('gke-computeclass-repo', 'gpu-gke-boot-');
  await fs.rm(path.join(tree.root, 'README.md'));
  const fixture = await snapshot(tree);
  // The folder stays (the tree writes no folders): only its kustomization goes.
  await fs.rm(path.join(tree.root, GPU_KUSTOMIZATION));
  await tree.writeFile(
    CLUSTER_KUSTOMIZATION,
    fixture[CLUSTER_KUSTOMIZATION].replace('  - gpu\n', ''),
  );
  return { tree, fixture };
}

describe('the bootstrap of a GKE cluster', () => {
  const trees: FsRepoTree[] = [];
  afterAll(() =>
    Promise.all(
      trees.map(t => fs.rm(t.root, { recursive: true, force: true })),
    ),
  );

  it('writes the GPU folder alone, wired into the cluster’s kustomization, and says what GKE runs', async () => {
    const { tree, fixture } = await notBootstrapped();
    trees.push(tree);
    const bootstrap = await buildBootstrapChangeSet(tree, gke(), options);
    expect(bootstrap.changes.map(c => `${c.action} ${c.path}`).sort()).toEqual([
      `create ${GPU_KUSTOMIZATION}`,
      `update ${CLUSTER_KUSTOMIZATION}`,
    ]);
    expect(bootstrap.gpuOperatorRelease).toBe('gke');
    expect(bootstrap.notes[0]).toBe(GKE_BOOTSTRAP_NOTE);
    await writeChangeSet(tree, bootstrap);
    const after = await snapshot(tree);
    // One line added to the team's kustomization: the fixture's own.
    expect(after[CLUSTER_KUSTOMIZATION]).toBe(fixture[CLUSTER_KUSTOMIZATION]);
    // The team's compute classes untouched; nothing of the GPU Operator.
    expect(Object.keys(after).sort()).toEqual(Object.keys(fixture).sort());
    const built = await kustomizeBuild(path.join(tree.root, 'clusters/gke-ml'));
    expect(built.map(o => `${o.kind}/${o.metadata.name}`)).toEqual([
      'ComputeClass/general',
      'ComputeClass/l4-inference',
    ]);
    // Idempotent.
    const again = await buildBootstrapChangeSet(tree, gke(), options);
    expect(again.changes).toEqual([]);
  });

  it('adds the bin-packing scheduler when the profile opts in, still no GPU Operator', async () => {
    const { tree } = await notBootstrapped();
    trees.push(tree);
    const bootstrap = await buildBootstrapChangeSet(
      tree,
      gke({ binPacking: true }),
      options,
    );
    const paths = bootstrap.changes.map(c => c.path);
    expect(paths.filter(p => !p.startsWith('clusters/gke-ml/gpu/'))).toEqual([
      CLUSTER_KUSTOMIZATION,
    ]);
    expect(paths.some(p => /scheduler/.test(p))).toBe(true);
    expect(paths.some(p => /gpu-operator|device-plugin|mig/.test(p))).toBe(
      false,
    );
  });

  it('names a GPU Operator the repository deploys, whose device plugin would serve GKE’s nodes a second time, and leaves it as it is', async () => {
    const { tree } = await notBootstrapped();
    trees.push(tree);
    await tree.writeFile('argocd/gpu-operator.yaml', ARGO_GPU_OPERATOR);
    const bootstrap = await buildBootstrapChangeSet(tree, gke(), options);
    expect(bootstrap.changes.map(c => c.path)).not.toContain(
      'argocd/gpu-operator.yaml',
    );
    expect(bootstrap.notes).toContainEqual(
      expect.stringMatching(
        /^the GPU Operator's device plugin \(Argo CD Application `argocd\/gpu-operator`.* runs a device plugin beside the one GKE runs on its GPU nodes: .*`devicePlugin.enabled: false`.*`gke-no-default-nvidia-gpu-device-plugin=true`/,
      ),
    );
  });
});
