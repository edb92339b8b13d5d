/**
 * TEST-ONLY: what Git says for drift tests: a time-sliced T4 pool with its
 * device-plugin config `ts-4`, a MIG A100 pool on `all-1g.10gb`, and a
 * request on each; the cluster `dev` on Karpenter (AWS), and the same Git
 * on a Cluster API and a static cluster profile.
 */
import {
  resolveClusterProfile,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import type { ClusterIndex } from '../../repoIndex/indexSnapshot';

export const repoState: RepoState = {
  pools: [
    {
      name: 'gpu-t4-ts4',
      path: 'clusters/dev/gpu/nodepools/gpu-t4-ts4.yaml',
      gpuModel: 't4',
      sharingMode: 'time-slicing',
      slicesPerGpu: 4,
      resourceName: 'nvidia.com/gpu.shared',
      instanceTypes: ['g4dn.xlarge'],
      capacityTypes: ['on-demand'],
      deviceConfigName: 'ts-4',
    },
    {
      name: 'gpu-a100-mig-1g.10gb',
      path: 'clusters/dev/gpu/nodepools/gpu-a100-mig-1g.10gb.yaml',
      gpuModel: 'a100-80gb',
      sharingMode: 'mig',
      migProfile: '1g.10gb',
      resourceName: 'nvidia.com/mig-1g.10gb',
      instanceTypes: ['p4de.24xlarge'],
      capacityTypes: ['on-demand'],
      migConfigName: 'all-1g.10gb',
    },
  ],
  devicePluginConfigs: { 'ts-4': {} },
  migConfigs: {
    'all-1g.10gb': [
      { devices: 'all', 'mig-enabled': true, 'mig-devices': { '1g.10gb': 7 } },
    ],
  },
  workloads: [
    {
      id: 'ml/chat',
      namespace: 'ml',
      name: 'chat',
      path: 'apps/ml/chat/deployment.yaml',
      pool: 'gpu-t4-ts4',
      resourceName: 'nvidia.com/gpu.shared',
      replicas: 2,
      perReplica: 1,
    },
    {
      id: 'ml/embed',
      namespace: 'ml',
      name: 'embed',
      path: 'apps/ml/embed/deployment.yaml',
      pool: 'gpu-a100-mig-1g.10gb',
      resourceName: 'nvidia.com/mig-1g.10gb',
      replicas: 1,
      perReplica: 1,
    },
  ],
};

export const devCluster: ClusterIndex = {
  profile: resolveClusterProfile({ name: 'dev' }),
  repoState,
  bootstrapped: true,
  kustomizationPath: 'clusters/dev/gpu/kustomization.yaml',
};

/** `dev` on Cluster API (OpenStack): its pools are MachineDeployments in `capi-dev`. */
export const capiProfile = resolveClusterProfile({
  name: 'dev',
  provider: 'cluster-api',
  clusterApi: {
    clusterName: 'dev',
    namespace: 'capi-dev',
    infrastructure: 'openstack',
    kubernetesVersion: 'v1.33.1',
    autoscaler: false,
    openStack: { imageName: 'ubuntu-2404-kube-v1.33.1' },
  },
});

/** `dev` on static nodes with an inventory: its pools are NodeFeatureRules. */
export const staticProfile = resolveClusterProfile({
  name: 'dev',
  provider: 'static',
  staticNodes: {
    select: 'name',
    inventory: [
      { name: 'gpu-t4-01', machine: 'rack-t4x2' },
      { name: 'gpu-t4-02', machine: 'rack-t4x2' },
      { name: 'gpu-a100-01', machine: 'rack-a100x8' },
    ],
  },
});
