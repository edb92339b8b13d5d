import type { GpuCatalog } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';
import type { Plan } from '../planner/types';
import { poolProviderOf } from '../providers/poolProviders';
import { buildDeployment } from './deployment';
import { buildDevicePluginConfig } from './devicePluginConfig';
import { buildMigConfig } from './migConfig';
import { buildResourceClaimTemplate } from './resourceClaimTemplate';
import type { KubernetesObject, ManifestSet } from './types';
import { buildWorkloadPatch, type PatchTarget } from './workloadPatch';

/** @public */
export interface BuildManifestsOptions {
  /**
   * The catalog the plan was made with. Needed for MIG `device-filter`s
   * (PCI ids of the model when a profile name is ambiguous across GPUs;
   * without it the mig-parted entry has no filter) and for a Cluster API
   * pool under the autoscaler (its flavor's vCPUs and memory).
   */
  catalog?: GpuCatalog;
  /**
   * The existing workload a request patches, as the repository holds it
   * (read by gpu-node's `resolveExistingWorkload`). Required when the request
   * names an existing workload: a patch written blind would target the wrong
   * container or change fields nobody asked to change.
   */
  existing?: PatchTarget;
}

/**
 * Renders a validated plan into typed objects, grouped by where they belong.
 * Pure: names and values come only from the plan and the cluster profile.
 *
 * - pool.objects: what the cluster's provider declares a pool with
 *   (`providers/`): on Karpenter the NodePool, then its NodeOverlays (shared
 *   pools, when the cluster enables NodeOverlay), then the node class (when
 *   generated); nothing for `static` clusters.
 * - devicePluginConfig: time-slicing and MPS only, unless the cluster reads
 *   it from a ConfigMap written by hand (`sharing.handWrittenConfigMap`).
 * - migConfig: MIG only, with the same exception.
 * - workload: a Deployment (+ ResourceClaimTemplate for DRA) for a new
 *   workload, or a strategic-merge patch (+ ResourceClaimTemplate for DRA).
 *
 * @public
 */
export function buildManifests(
  plan: Plan,
  cluster: ClusterProfile,
  options: BuildManifestsOptions = {},
): ManifestSet {
  const poolObjects = poolProviderOf(cluster).poolObjects(
    plan,
    cluster,
    options.catalog,
  );

  const isPatch = plan.request.spec.workload.existing !== undefined;
  if (isPatch && !options.existing) {
    throw new Error(
      `the request ${plan.request.metadata.namespace}/${plan.request.metadata.name} patches an existing workload: read it from the repository first (resolveExistingWorkload)`,
    );
  }
  const workloadObjects: KubernetesObject[] = [
    isPatch
      ? buildWorkloadPatch(plan, cluster, options.existing!)
      : buildDeployment(plan, cluster),
  ];
  if (plan.sharing.mode === 'dra') {
    // The claim template comes first: the workload references it.
    workloadObjects.unshift(buildResourceClaimTemplate(plan));
  }

  const manifests: ManifestSet = {
    pool: { name: plan.pool.name, objects: poolObjects },
    workload: {
      namespace: plan.request.metadata.namespace,
      component: plan.request.metadata.name,
      mode: isPatch ? 'patch' : 'new',
      objects: workloadObjects,
    },
  };
  const devicePluginConfig = buildDevicePluginConfig(plan);
  if (devicePluginConfig) manifests.devicePluginConfig = devicePluginConfig;
  const migConfig = buildMigConfig(plan, options.catalog);
  if (migConfig) manifests.migConfig = migConfig;
  return manifests;
}
