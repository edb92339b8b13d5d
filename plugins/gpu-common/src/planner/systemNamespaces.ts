import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';

/**
 * The namespaces a GPU request may never target on this cluster: the
 * profile's list plus the namespaces of the device-plugin and mig-parted
 * ConfigMaps (where the GPU Operator runs). A GPU workload there would run
 * beside the control plane or the operators that keep the GPU nodes alive.
 */
export function systemNamespacesOf(cluster: ClusterProfile): string[] {
  return [
    ...new Set([
      ...cluster.systemNamespaces,
      cluster.devicePluginConfigMap.namespace,
      cluster.migPartedConfigMap.namespace,
    ]),
  ].sort();
}

/** Refuses a request whose workload namespace is a system namespace of the cluster. */
export function checkRequestNamespace(
  request: GpuRequest,
  cluster: ClusterProfile,
): void {
  const namespace = request.metadata.namespace;
  const system = systemNamespacesOf(cluster);
  if (!system.includes(namespace)) return;
  throw new GpuInputError([
    {
      path: 'metadata.namespace',
      rule: 'system-namespace',
      message: `"${namespace}" is a system namespace of cluster "${cluster.name}" (${system.join(', ')}): GPU workloads run in an application namespace`,
    },
  ]);
}
