import type { BuiltPool } from './builtPools';
import type { BuiltRoot } from './builtRoots';
import type { GpuWorkload } from './builtWorkloads';
import { withoutTeamGpuNodeWorkloads } from './teamGpuNodes';

/** A team's NodeFeatureRule labelling its A100 servers (NFD v0.18.3 docs' form). */
const gpuClassRule = {
  apiVersion: 'nfd.k8s-sigs.io/v1alpha1',
  kind: 'NodeFeatureRule',
  metadata: { name: 'gpu-class' },
  spec: {
    rules: [
      {
        name: 'a100',
        labels: { 'feature.node.kubernetes.io/gpu-class': 'a100' },
        matchFeatures: [
          {
            feature: 'pci.device',
            matchExpressions: { vendor: { op: 'In', value: ['10de'] } },
          },
        ],
      },
    ],
  },
};
const root = { objects: [gpuClassRule] } as unknown as BuiltRoot;

function workload(
  name: string,
  nodeSelector: Record<string, string>,
): GpuWorkload {
  return {
    id: `ml/Deployment/${name}`,
    object: {
      apiVersion: 'apps/v1',
      kind: 'Deployment',
      metadata: { name },
      spec: { template: { spec: { nodeSelector, containers: [] } } },
    },
  } as unknown as GpuWorkload;
}

const onTeamNodes = workload('trainer', {
  'feature.node.kubernetes.io/gpu-class': 'a100',
});
const elsewhere = workload('notebook', {
  'feature.node.kubernetes.io/gpu-class': 'h100',
});
const pool = (kind: string) => ({ object: { kind } }) as unknown as BuiltPool;

describe('workloads on GPU nodes no pool describes', () => {
  it('sets aside, with a note, a workload selecting a team’s NFD GPU class on a cluster without Karpenter', () => {
    const notes: string[] = [];
    expect(
      withoutTeamGpuNodeWorkloads(
        [onTeamNodes, elsewhere],
        [root],
        [pool('NodeFeatureRule')],
        notes,
      ),
    ).toEqual([elsewhere]);
    expect(notes).toEqual([
      expect.stringContaining(
        "Deployment/trainer selects feature.node.kubernetes.io/gpu-class=a100: its pods may land on the GPU nodes the team's NodeFeatureRule gpu-class/a100 labels",
      ),
    ]);
  });

  it('sets aside a GPU workload that selects no node: its pods may land on any of the team’s GPU nodes', () => {
    const anywhere = workload('anywhere', {});
    const notes: string[] = [];
    expect(
      withoutTeamGpuNodeWorkloads(
        [anywhere, elsewhere],
        [root],
        [pool('NodeFeatureRule')],
        notes,
      ),
    ).toEqual([elsewhere]);
    expect(notes).toEqual([
      "Deployment/anywhere selects no node: its pods may land on the GPU nodes the team's NodeFeatureRule gpu-class/a100 labels; no pool in the repository describes them, so what they advertise and their taints were not checked",
    ]);
  });

  it('reads Karpenter from the cluster profile’s provider when it is given, not from the pools built', () => {
    // A static cluster whose tree still builds a hand-written NodePool: no Karpenter launches for it.
    const notes: string[] = [];
    expect(
      withoutTeamGpuNodeWorkloads(
        [onTeamNodes, elsewhere],
        [root],
        [pool('NodePool')],
        notes,
        false,
      ),
    ).toEqual([elsewhere]);
    // A Karpenter cluster building only NodeFeatureRules: every node still comes from a NodePool.
    expect(
      withoutTeamGpuNodeWorkloads(
        [onTeamNodes, elsewhere],
        [root],
        [pool('NodeFeatureRule')],
        [],
        true,
      ),
    ).toEqual([onTeamNodes, elsewhere]);
  });

  it('judges every workload where Karpenter launches every node from a NodePool', () => {
    const notes: string[] = [];
    expect(
      withoutTeamGpuNodeWorkloads(
        [onTeamNodes, elsewhere],
        [root],
        [pool('NodePool')],
        notes,
      ),
    ).toEqual([onTeamNodes, elsewhere]);
    expect(notes).toEqual([]);
  });
});
