import { resolveClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import { buildGpuOperatorValues } from './gpuOperatorValues';

const nfd = (override: Record<string, unknown>) =>
  buildGpuOperatorValues(resolveClusterProfile({ name: 'c', ...override }))[
    'node-feature-discovery'
  ] as Record<string, any>;

describe('GPU Operator values: NFD taints for static pools', () => {
  it('a static cluster with an inventory sets the NFD subchart master.enableTaints (nfd-master -enable-taints) (its pools are NodeFeatureRules with taints)', () => {
    const values = nfd({
      provider: 'static',
      staticNodes: {
        select: 'name',
        inventory: [{ name: 'gpu-01', machine: 'rack-t4x2' }],
      },
    });
    expect(values.master).toEqual({ enableTaints: true });
    // nfd-worker still runs on the tainted GPU nodes
    expect(values.worker.tolerations).toContainEqual({
      key: 'nvidia.com/gpu',
      operator: 'Exists',
      effect: 'NoSchedule',
    });
  });

  it.each([[{ provider: 'static' }], [{ provider: 'aws-karpenter' }]])(
    '%j: NFD master settings are left to the chart',
    override => {
      expect(nfd(override).master).toBeUndefined();
    },
  );
});
