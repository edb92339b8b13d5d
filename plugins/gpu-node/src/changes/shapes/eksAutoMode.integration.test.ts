/**
 * A platform team's round on an EKS Auto Mode repository
 * (`test/fixtures/eks-auto-mode-repo`, origins in its README): the EKS
 * blueprint's custom NodeClass and NodePools and the user guide's GPU
 * NodePool on the `default` NodeClass. The bootstrap writes the GPU folder
 * alone (AWS runs the NVIDIA driver, device plugin and Karpenter); then
 * whole GPUs and GPUs claimed through DRA (Kubernetes 1.36, where Auto Mode
 * runs NVIDIA's DRA driver) each plan, render a NodePool in Auto Mode's
 * labels, build with the real kustomize, land on the planned pool and no
 * other (the team's `gpu` NodePool beside it included), validate clean and
 * release byte for byte; time-slicing, MPS and MIG are refused with the
 * reason and nothing is written.
 */
import { parseAllDocuments } from 'yaml';
import {
  builtinCatalog,
  isGpuInputError,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { FsRepoTree } from '../../repo/tree';
import { validateGitOpsTree } from '../../validate/validateGitOpsTree';
import { buildRequestChange } from '../buildRequestChange';
import type { FileWrite } from '../types';
import {
  bootstrapShape,
  expectLandsOnPlannedPool,
  requestThenRelease,
  shapeRequest,
  snapshot,
  withShapeRepository,
} from './__testUtils__/shapeRound';

// The bootstrap, then each request and release built with the real kustomize.
jest.setTimeout(300_000);

const cluster = resolveClusterProfile({
  name: 'auto-ml',
  provider: 'eks-auto-mode',
  region: 'us-west-2',
  kubernetesVersion: '1.36.1',
});

describe('the EKS Auto Mode repository with the user guide’s GPU NodePool', () => {
  let tree: FsRepoTree;
  let bootstrapped: Record<string, string>;

  withShapeRepository('eks-auto-mode-repo', 'gpu-shape-automode-', checkout => {
    ({ tree } = checkout);
  });

  it('the bootstrap writes the GPU folder alone, wired into the cluster’s kustomization, and says why', async () => {
    const { changeSet: bootstrap } = await bootstrapShape(tree, cluster);
    expect(bootstrap.changes.map(c => c.path).sort()).toEqual([
      'clusters/auto-ml/gpu/kustomization.yaml',
      'clusters/auto-ml/kustomization.yaml',
    ]);
    expect(bootstrap.gpuOperatorRelease).toBe('eks-auto-mode');
    expect(bootstrap.notes[0]).toContain(
      'the bootstrap writes no GPU Operator, device-plugin or MIG config, DRA driver, Karpenter release or NodeClass',
    );
    bootstrapped = await snapshot(tree);
    expect(await validateGitOpsTree(tree.root, { cluster })).toEqual([]);
  });

  it.each([
    [
      'whole GPUs',
      'embedder',
      { model: 'l4', sharing: 'exclusive', replicas: 2, vramGiB: 20 },
    ],
    [
      'GPUs claimed through DRA',
      'reranker',
      { model: 'a10g', sharing: 'dra', replicas: 2, vramGiB: 16 },
    ],
  ])(
    '%s: a NodePool in Auto Mode’s labels, its pods on it only, validated clean, every file given back on release',
    async (_what, name, gpu) => {
      const { change, findings } = await requestThenRelease(
        tree,
        shapeRequest(name, {
          gpu,
          workload: { image: `ghcr.io/acme/${name}:1.0` },
        }),
        cluster,
      );
      const poolFile = change.changeSet.changes.find(
        (c): c is FileWrite =>
          c.action !== 'delete' &&
          c.path.startsWith('clusters/auto-ml/gpu/nodepools/'),
      );
      const objects = parseAllDocuments(poolFile?.content ?? '').map(d =>
        d.toJS(),
      );
      expect(objects.map(o => o.kind)).toEqual(['NodePool']);
      const [nodePool] = objects;
      expect(nodePool.spec.template.spec.nodeClassRef).toEqual({
        group: 'eks.amazonaws.com',
        kind: 'NodeClass',
        name: 'default',
      });
      const keys: string[] = nodePool.spec.template.spec.requirements.map(
        (r: { key: string }) => r.key,
      );
      expect(keys).toContain('eks.amazonaws.com/instance-gpu-name');
      expect(keys.filter(k => k.startsWith('karpenter.k8s.aws/'))).toEqual([]);
      expect(keys).not.toContain('kubernetes.io/os');
      expect(
        change.changeSet.changes.some(c => c.path.includes('device-plugin')),
      ).toBe(false);
      expectLandsOnPlannedPool(change);
      expect(findings).toEqual([]);
      expect(await snapshot(tree)).toEqual(bootstrapped);
    },
  );

  it.each([
    ['time-slicing', 't4'],
    ['mps', 't4'],
    ['mig', 'a100-40gb'],
  ])(
    '%s is refused with the reason, nothing written',
    async (sharing, model) => {
      let thrown: unknown;
      try {
        await buildRequestChange({
          tree,
          dir: tree.root,
          request: shapeRequest('chat', {
            gpu: { model, sharing, replicas: 4, vramGiB: 4 },
            workload: { image: 'ghcr.io/acme/chat:1.0' },
          }),
          cluster,
          catalog: builtinCatalog,
        });
      } catch (e) {
        thrown = e;
      }
      expect(isGpuInputError(thrown)).toBe(true);
      expect(String((thrown as Error).message)).toContain(
        'EKS Auto Mode runs its own NVIDIA device plugin',
      );
      expect(await snapshot(tree)).toEqual(bootstrapped);
    },
  );
});
