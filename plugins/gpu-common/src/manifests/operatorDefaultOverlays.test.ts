/**
 * A time-sliced request on a pool written before the product, whose nodes
 * carry no `nvidia.com/device-plugin.config` label and so run the GPU
 * Operator's default config (NVIDIA gpu-operator docs, "Time-Slicing GPUs in
 * Kubernetes": `devicePlugin.config.default` applies to every node without
 * that label). The NodePool template stays as written (a changed template
 * makes Karpenter replace every node), but Karpenter still has to be told
 * the slices: it knows only the physical GPUs from EC2, so without
 * NodeOverlays it launches a node per slice pod (Karpenter docs,
 * "NodeOverlays", v1.14). The overlays change no template, so they are
 * written wherever the cluster applies them (profile `nodeOverlay`).
 */
import type { ClusterGpuStack } from '../cluster/gpuStack';
import type { ClusterProfile } from '../cluster/types';
import { plan } from '../planner/plan';
import type {
  HandWrittenConfigMap,
  PoolState,
  RepoState,
} from '../planner/types';
import {
  cluster,
  fixtureCatalog,
  gpuRequest,
} from '../planner/__testUtils__/fixtures';
import { buildManifests } from './buildManifests';
import { WELL_KNOWN_KEYS } from './metadataKeys';

/** The recipe's `any` key: 4 time slices of each GPU, as `nvidia.com/gpu`. */
const fourSlices = {
  version: 'v1',
  sharing: {
    timeSlicing: { resources: [{ name: 'nvidia.com/gpu', replicas: 4 }] },
  },
};

const stack: ClusterGpuStack = {
  operatorSharesByDefault: {
    file: 'clusters/prod/gpu-operator/release.yaml',
    setting: '`devicePlugin.config.default: any` in values.yaml',
    sharing: 'time-slicing, 4 per GPU, as `nvidia.com/gpu`',
    config: { key: 'any', content: fourSlices },
  },
};

/** The adopted pool: time-sliced 4 ways by the default, its nodes unlabelled. */
const adopted: PoolState = {
  name: 'nvidia-gpu',
  path: 'clusters/prod/karpenter/nvidia-gpu.yaml',
  gpuModel: 't4',
  sharingMode: 'time-slicing',
  slicesPerGpu: 4,
  resourceName: 'nvidia.com/gpu',
  instanceTypes: ['t4-x1', 't4-x4'],
  capacityTypes: ['on-demand'],
  limits: { 'nvidia.com/gpu': 40 },
  ledger: [{ request: 'ml/whisper', replicas: 2, unitsPerReplica: 1 }],
};

/**
 * The operator's device plugin reads the team's ConfigMap, whose `any` key
 * is the default (as in `test/fixtures/flux-v1alpha5-repo`).
 */
const configMap: HandWrittenConfigMap = {
  name: 'time-slicing-config',
  namespace: 'gpu-operator',
  path: 'clusters/prod/gpu-operator/time-slicing-config.yaml',
  devicePluginConfigs: { any: fourSlices },
  migConfigs: {},
};

const repoState: RepoState = {
  pools: [adopted],
  devicePluginConfigs: { any: fourSlices },
  migConfigs: {},
  workloads: [],
  handWrittenConfigMaps: [configMap],
  gpuStack: stack,
};

const profile = (override: Record<string, unknown>) =>
  cluster({
    name: 'prod',
    devicePluginConfigMap: {
      name: configMap.name,
      namespace: configMap.namespace,
    },
    ...override,
  });

function stringRecordAt(
  value: unknown,
  ...path: string[]
): Record<string, string> {
  const found = path.reduce<unknown>(
    (at, key) => (at as Record<string, unknown> | undefined)?.[key],
    value,
  );
  return (found ?? {}) as Record<string, string>;
}

function poolObjectsOn(onCluster: ClusterProfile) {
  const planned = plan(
    gpuRequest({ sharing: 'time-slicing', vramGiB: 3, slicesPerGpu: 4 }),
    fixtureCatalog,
    onCluster,
    repoState,
  );
  expect(planned.pool.reused).toBe(true);
  expect(planned.sharing.onOperatorDefault).toBe(true);
  const objects = buildManifests(planned, onCluster).pool.objects;
  const nodePool = objects.find(o => o.kind === 'NodePool');
  return {
    labels: stringRecordAt(nodePool, 'spec', 'template', 'metadata', 'labels'),
    overlays: objects.filter(o => o.kind === 'NodeOverlay'),
  };
}

describe('a pool kept on the GPU Operator’s default config', () => {
  it('gets NodeOverlays counting its slices on a Karpenter v1 cluster with the NodeOverlay gate on, and no config label', () => {
    const { labels, overlays } = poolObjectsOn(
      profile({ karpenterVersion: '1.8.0', nodeOverlay: true }),
    );
    expect(labels[WELL_KNOWN_KEYS.devicePluginConfig]).toBeUndefined();
    expect(
      overlays.map(o => ({
        name: o.metadata.name,
        capacity: (o.spec as { capacity: unknown }).capacity,
      })),
    ).toEqual([
      { name: 'nvidia-gpu-1gpu', capacity: { 'nvidia.com/gpu': '4' } },
      { name: 'nvidia-gpu-4gpu', capacity: { 'nvidia.com/gpu': '16' } },
    ]);
  });

  it('is refused, as every time-sliced request is, where Karpenter runs without its NodeOverlay gate (profile nodeOverlay: false)', () => {
    // The product decides from the profile's `nodeOverlay` (the bootstrap's
    // Karpenter notes align it with the release's gate); without overlays
    // Karpenter would never launch a node for a shared pod asking for more
    // slices than an instance type has GPUs, so the request stays refused.
    expect(() =>
      poolObjectsOn(profile({ karpenterVersion: '1.6.0', nodeOverlay: false })),
    ).toThrow(
      expect.objectContaining({
        issues: [
          expect.objectContaining({
            path: 'spec.gpu.sharing',
            rule: 'nodeoverlay-gate-off',
          }),
        ],
      }),
    );
  });
});
