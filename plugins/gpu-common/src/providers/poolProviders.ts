import type { ClusterApiInfrastructure } from '../cluster/clusterApi';
import type { ClusterProfile, ClusterProvider } from '../cluster/types';
import type { KubernetesObject } from '../manifests/types';
import { awsKarpenterProvider } from './awsKarpenter';
import { azureKarpenterProvider } from './azureKarpenter';
import { clusterApiAws } from './clusterApiAws';
import { eksAutoModeProvider } from './eksAutoMode';
import { clusterApiAzure } from './clusterApiAzure';
import { clusterApiMetal3 } from './clusterApiMetal3';
import { clusterApiOpenStack } from './clusterApiOpenStack';
import { clusterApiPoolProvider } from './clusterApiPool';
import { clusterApiVSphere } from './clusterApiVSphere';
import { gkeComputeClassProvider } from './gkeComputeClass';
import { generatesNodeClass } from './karpenterPool';
import { staticNodesProvider } from './staticNodes';
import type { PoolProvider } from './types';

const CLUSTER_API_PROVIDERS: Record<ClusterApiInfrastructure, PoolProvider> = {
  openstack: clusterApiPoolProvider(clusterApiOpenStack),
  vsphere: clusterApiPoolProvider(clusterApiVSphere),
  metal3: clusterApiPoolProvider(clusterApiMetal3),
  azure: clusterApiPoolProvider(clusterApiAzure),
  aws: clusterApiPoolProvider(clusterApiAws),
};

const POOL_PROVIDERS: Record<ClusterProvider, PoolProvider> = {
  'aws-karpenter': awsKarpenterProvider,
  'eks-auto-mode': eksAutoModeProvider,
  'azure-karpenter': azureKarpenterProvider,
  static: staticNodesProvider,
  gke: gkeComputeClassProvider,
  // A bare provider name has no infrastructure: every Cluster API provider
  // has the same id and pool kind, and only a profile (which always has
  // its clusterApi settings) tells which machines it gets.
  'cluster-api': CLUSTER_API_PROVIDERS.openstack,
};

/**
 * The provider of a cluster (or of a profile's `provider` value); a Cluster
 * API cluster's is its infrastructure's.
 *
 * @public
 */
export function poolProviderOf(
  cluster: Pick<ClusterProfile, 'provider' | 'clusterApi'> | ClusterProvider,
): PoolProvider {
  if (typeof cluster === 'string') return POOL_PROVIDERS[cluster];
  if (cluster.provider === 'cluster-api' && cluster.clusterApi) {
    return CLUSTER_API_PROVIDERS[cluster.clusterApi.infrastructure];
  }
  return POOL_PROVIDERS[cluster.provider];
}

/**
 * The node class the product writes for the cluster, when its profile asks
 * for one (`generateNodeClass` and the provider's own kind); else undefined.
 *
 * @public
 */
export function generatedNodeClass(
  cluster: ClusterProfile,
): KubernetesObject | undefined {
  const machines = poolProviderOf(cluster).karpenter;
  return machines?.buildNodeClass && generatesNodeClass(cluster, machines)
    ? machines.buildNodeClass(cluster)
    : undefined;
}
