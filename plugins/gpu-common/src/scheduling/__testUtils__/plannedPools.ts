/**
 * TEST-ONLY: one plan per sharing mode on each provider, with the shape of
 * its pool's nodes read from the rendered pool objects (NodePool,
 * MachineDeployment with its KubeadmConfigTemplate, NodeFeatureRule) and
 * their GPU resources from the rendered device-plugin and mig-parted configs.
 */
import { findInstanceType } from '../../catalog/lookup';
import { builtinCatalog } from '../../catalog/builtin';
import type { GpuCatalog } from '../../catalog/types';
import { sharingModeUnavailable } from '../../cluster/capabilities';
import { resolveClusterProfile } from '../../cluster/schema';
import type { ClusterProfile } from '../../cluster/types';
import { buildManifests } from '../../manifests/buildManifests';
import { plan } from '../../planner/plan';
import { gpuRequest } from '../../planner/__testUtils__/fixtures';
import type { Plan } from '../../planner/types';
import { poolProviderOf } from '../../providers/poolProviders';
import { seedOpenStackCatalog } from '../../providers/__testUtils__/openStackFlavors';
import {
  staticCluster,
  staticRackCatalog,
} from '../../providers/__testUtils__/staticRack';
import { SHARING_MODES, type SharingMode } from '../../request/types';
import { advertisedPerNode, advertisedResources } from '../advertisedResources';
import type { PoolNodeShape } from '../nodeShape';
import { nodeShapeOf } from '../nodeShapeOf';

const REQUESTS: Record<SharingMode, [string, Record<string, unknown>]> = {
  exclusive: ['t4', { replicas: 2, vramGiB: 12, gpusPerReplica: 1 }],
  'time-slicing': ['t4', { replicas: 6, vramGiB: 3, slicesPerGpu: 4 }],
  mps: ['t4', { replicas: 5, vramGiB: 3 }],
  mig: ['a100-40gb', { replicas: 3, vramGiB: 9 }],
  dra: ['t4', { replicas: 2, vramGiB: 8 }],
};

export const PROVIDERS: Array<[string, ClusterProfile, GpuCatalog]> = [
  ['Karpenter AWS', resolveClusterProfile(), builtinCatalog],
  [
    'Karpenter Azure',
    resolveClusterProfile({
      name: 'aks-weu',
      provider: 'azure-karpenter',
      region: 'westeurope',
    }),
    builtinCatalog,
  ],
  [
    'Cluster API OpenStack',
    resolveClusterProfile({
      name: 'ml-prod',
      provider: 'cluster-api',
      migStrategy: 'single',
      gpuTaintKey: 'node-role.kubernetes.io/gpu',
      clusterApi: {
        clusterName: 'ml-prod',
        namespace: 'capi-ml-prod',
        infrastructure: 'openstack',
        kubernetesVersion: 'v1.33.1',
        autoscaler: false,
        openStack: { imageName: 'ubuntu-2404-kube-v1.33.1', sshKeyName: 'ml' },
      },
    }),
    seedOpenStackCatalog,
  ],
  ['static (NodeFeatureRule)', staticCluster('gpu'), staticRackCatalog],
];

export interface Planned {
  thePlan: Plan;
  shape: PoolNodeShape;
  podSpec: unknown;
}

export function planEveryMode(
  cluster: ClusterProfile,
  catalog: GpuCatalog,
): Planned[] {
  const provider = poolProviderOf(cluster);
  return SHARING_MODES.filter(
    mode => !sharingModeUnavailable(cluster, mode),
  ).map(mode => {
    const [model, gpu] = REQUESTS[mode];
    const thePlan = plan(
      gpuRequest({ model, sharing: mode, ...gpu }, { name: `llm-${mode}` }),
      catalog,
      cluster,
    );
    const manifests = buildManifests(thePlan, cluster, { catalog });
    const poolObject = manifests.pool.objects.find(
      o => o.kind === provider.poolKind,
    )!;
    const advertised = advertisedResources(
      manifests.devicePluginConfig?.config,
      manifests.migConfig?.entries,
      cluster.migStrategy,
    );
    const machine = findInstanceType(catalog, thePlan.nodes.instanceType);
    const shape = nodeShapeOf(poolObject as any, {
      objects: manifests.pool.objects,
      resources: advertisedPerNode(advertised, machine?.gpusPerNode),
    });
    const deployment = manifests.workload.objects.find(
      o => o.kind === 'Deployment',
    ) as any;
    return { thePlan, shape, podSpec: deployment.spec.template.spec };
  });
}
