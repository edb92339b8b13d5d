import type { ClusterProfile, ClusterProvider } from '../cluster/types';
import type { KubernetesObject } from '../manifests/types';
import { awsKarpenterProvider } from './awsKarpenter';
import { azureKarpenterProvider } from './azureKarpenter';
import { clusterApiProvider } from './clusterApiOpenStack';
import { generatesNodeClass } from './karpenterPool';
import { staticNodesProvider } from './staticNodes';
import type { PoolProvider } from './types';

const POOL_PROVIDERS: Record<ClusterProvider, PoolProvider> = {
  'aws-karpenter': awsKarpenterProvider,
  'azure-karpenter': azureKarpenterProvider,
  static: staticNodesProvider,
  'cluster-api': clusterApiProvider,
};

/**
 * The provider of a cluster (or of a profile's `provider` value).
 *
 * @public
 */
export function poolProviderOf(
  cluster: Pick<ClusterProfile, 'provider'> | ClusterProvider,
): PoolProvider {
  const id = typeof cluster === 'string' ? cluster : cluster.provider;
  return POOL_PROVIDERS[id];
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
  return machines && generatesNodeClass(cluster, machines)
    ? machines.buildNodeClass(cluster)
    : undefined;
}
