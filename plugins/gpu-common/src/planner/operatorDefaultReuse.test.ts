/**
 * A reused pool whose nodes carry no `nvidia.com/device-plugin.config`
 * label runs the GPU Operator's default config (NVIDIA gpu-operator docs,
 * "Time-Slicing GPUs in Kubernetes"). The plan labels it only when that
 * default does not give the planned sharing: a changed NodePool template
 * replaces every node (Karpenter drift).
 */
import type { ClusterGpuStack } from '../cluster/gpuStack';
import { WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { DevicePluginConfig } from '../manifests/types';
import { devicePluginConfigFor } from './devicePluginConfig';
import { keepOperatorDefaultConfig } from './reusedPoolConfigs';
import type { PoolState, SharingPlan } from './types';

const pool: PoolState = {
  name: 'nvidia-gpu',
  path: 'clusters/prod/karpenter/nvidia-gpu.yaml',
  gpuModel: 't4',
  sharingMode: 'time-slicing',
  slicesPerGpu: 4,
  resourceName: 'nvidia.com/gpu',
  instanceTypes: ['g4dn.xlarge'],
  capacityTypes: ['on-demand'],
};

/** The recipe's `any` key: 4 slices of each GPU, as `nvidia.com/gpu`. */
const recipeDefault = (replicas: number): DevicePluginConfig => ({
  version: 'v1',
  sharing: {
    timeSlicing: { resources: [{ name: 'nvidia.com/gpu', replicas }] },
  },
});

const stackWith = (content: unknown): ClusterGpuStack => ({
  operatorSharesByDefault: {
    file: 'clusters/prod/gpu-operator/release.yaml',
    setting: '`devicePlugin.config.default: any` in values.yaml',
    sharing: 'time-slicing, 4 per GPU, as `nvidia.com/gpu`',
    config: { key: 'any', content },
  },
});

function planned(config: DevicePluginConfig) {
  const sharing: SharingPlan = {
    mode: 'time-slicing',
    slicesPerGpu: 4,
    deviceConfigName: 'ts-4-abc',
    devicePluginConfig: config,
  } as SharingPlan;
  const modeLabels = { [WELL_KNOWN_KEYS.devicePluginConfig]: 'ts-4-abc' };
  return { sharing, modeLabels };
}

describe('keepOperatorDefaultConfig', () => {
  it('adds no label when the default gives the same slices of the same resource, and plans on the default', () => {
    const { sharing, modeLabels } = planned(recipeDefault(4));
    const why = keepOperatorDefaultConfig(
      pool,
      sharing,
      modeLabels,
      stackWith(recipeDefault(4)),
    );
    expect(why).toContain('default config "any"');
    expect(modeLabels).toEqual({});
    expect(sharing).toMatchObject({
      deviceConfigName: 'any',
      onOperatorDefault: true,
    });
  });

  it.each([
    ['another slice count', recipeDefault(2), recipeDefault(4)],
    [
      'another resource name (renameByDefault)',
      recipeDefault(4),
      devicePluginConfigFor('time-slicing', 4),
    ],
  ])('labels the pool when the default gives %s', (_, fallback, config) => {
    const { sharing, modeLabels } = planned(config);
    expect(
      keepOperatorDefaultConfig(pool, sharing, modeLabels, stackWith(fallback)),
    ).toBeUndefined();
    expect(modeLabels[WELL_KNOWN_KEYS.devicePluginConfig]).toBe('ts-4-abc');
    expect(sharing.onOperatorDefault).toBeUndefined();
  });

  it('leaves a pool whose nodes select a config by label as planned', () => {
    const { sharing, modeLabels } = planned(recipeDefault(4));
    expect(
      keepOperatorDefaultConfig(
        { ...pool, deviceConfigName: 'ts-4' },
        sharing,
        modeLabels,
        stackWith(recipeDefault(4)),
      ),
    ).toBeUndefined();
    expect(modeLabels[WELL_KNOWN_KEYS.devicePluginConfig]).toBe('ts-4-abc');
  });
});
