import type { SharingMode } from '../request/types';
import type { Unavailable } from './unavailable';
import type { ClusterProfile } from './types';

/**
 * Why a GKE cluster cannot run `mode`; undefined when it can. DRA: GKE's
 * own words (docs.cloud.google.com/kubernetes-engine/docs/how-to/set-up-dra,
 * GKE ≥ 1.34): "Node auto-provisioning isn't supported. Autopilot clusters
 * don't support DRA", and a DRA node pool cannot use time-sharing, MIG or
 * MPS. The product's GKE pools are ComputeClasses whose node pools GKE
 * auto-creates, so a DRA pool would never get a node.
 */
export function gkeModeUnavailable(
  cluster: Pick<ClusterProfile, 'name' | 'provider'>,
  mode: SharingMode,
): Unavailable | undefined {
  if (cluster.provider !== 'gke' || mode !== 'dra') return undefined;
  return {
    path: 'spec.gpu.sharing',
    rule: 'gke-dra-autoscaling',
    reason: `cluster ${cluster.name} runs on GKE, whose pools here are ComputeClasses with node-pool auto-creation; GKE does not auto-provision nodes for DRA ("Node auto-provisioning isn't supported", Autopilot does not support DRA, and a DRA node pool cannot use time-sharing, MPS or MIG): the pods would stay Pending. Ask for exclusive, time-slicing, MPS or MIG, which the ComputeClass gives through GKE's own device plugin`,
  };
}
