import { plan, resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { isolationTradeOff } from './isolation';
import { builtinCatalog } from '@gpu-gitops/plugin-gpu-common';

function draPlan(override: Record<string, unknown>) {
  return plan(
    {
      apiVersion: 'gpu.backstage.io/v1alpha1',
      kind: 'GpuRequest',
      metadata: { name: 'embed', namespace: 'ml' },
      spec: {
        owner: 'group:default/ml',
        gpu: { model: 'l4', sharing: 'dra', replicas: 8, vramGiB: 5 },
        workload: { image: 'ghcr.io/acme/embed:1.0' },
        capacityTypes: ['on-demand'],
      },
    } as any,
    builtinCatalog,
    resolveClusterProfile({ name: 'c', ...override }),
  );
}

describe('isolationTradeOff: DRA', () => {
  it('says a static pool where Karpenter cannot provision for claims', () => {
    expect(isolationTradeOff(draPlan({}))).toEqual([
      'Devices are allocated through Dynamic Resource Allocation: each claim holds a whole GPU.',
      'Karpenter does not provision nodes for pods with resource claims here: this runs on a static pool.',
    ]);
  });

  it('says Karpenter launches the nodes, and that shares do not isolate memory', () => {
    const [memory, scaling] = isolationTradeOff(
      draPlan({
        karpenterVersion: '1.15.1',
        kubernetesVersion: '1.36.2',
        dra: { karpenterNvidiaGate: true, consumableShares: 4 },
      }),
    );
    expect(memory).toMatch(
      /^\*\*No memory isolation\*\*: the NVIDIA DRA driver shares each GPU among 4 shares/,
    );
    expect(scaling).toMatch(
      /^Karpenter launches this pool's nodes for pending claims/,
    );
  });
});
