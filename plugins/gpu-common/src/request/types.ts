/**
 * The one request format shared by the CLI, the scaffolder actions and the
 * form. The zod schema in `schema.ts` is the authority; this interface is what
 * it parses into (after defaults are applied).
 *
 * @public
 */

export type SharingMode = 'exclusive' | 'time-slicing' | 'mps' | 'mig' | 'dra';

/** @public */
export const SHARING_MODES: readonly SharingMode[] = [
  'exclusive',
  'time-slicing',
  'mps',
  'mig',
  'dra',
];

/** @public */
export type CapacityType = 'spot' | 'on-demand';

/**
 *  The workload kinds a request can give GPUs to (their pod template is patched).
 *
 * @public
 */
export type WorkloadKind = 'Deployment' | 'StatefulSet' | 'Job' | 'CronJob';

/** @public */
export const WORKLOAD_KINDS: readonly WorkloadKind[] = [
  'Deployment',
  'StatefulSet',
  'Job',
  'CronJob',
];

/**
 *  An existing workload of the GitOps repository that gets the GPUs.
 *
 * @public
 */
export interface ExistingWorkloadRef {
  kind: WorkloadKind;
  name: string;
  /**
   * The container that gets the GPU. Optional when the workload has exactly
   * one container; required (and checked against the repository) otherwise.
   */
  container?: string;
}

/** @public */
export interface GpuRequest {
  apiVersion: 'gpu.backstage.io/v1alpha1';
  kind: 'GpuRequest';
  metadata: {
    /** DNS-1123 label; also the component / workload name. */
    name: string;
    /** DNS-1123 label. */
    namespace: string;
  };
  spec: {
    /** Backstage entity ref of the owner, e.g. `group:default/ml-platform`. */
    owner: string;
    /**
     * The cluster profile the request targets (DNS-1123 label). Optional in
     * what users write (the configured default applies); the stored request
     * always carries it, so it can be re-rendered on a moved base.
     */
    cluster?: string;
    gpu: {
      /** A catalog model id, or `auto` for the cheapest model that fits. */
      model: string;
      sharing: SharingMode;
      replicas: number;
      /** VRAM each replica needs, in GiB. */
      vramGiB: number;
      /** Whole GPUs per replica; exclusive mode only (default 1). */
      gpusPerReplica: number;
      /** Optional time-slicing override of replicas per GPU. */
      slicesPerGpu?: number;
    };
    /** Exactly one of `image` (a new workload) or `existing` (patch one). */
    workload: {
      image?: string;
      existing?: ExistingWorkloadRef;
    };
    capacityTypes: CapacityType[];
    /**
     * When the product releases the request by itself (RFC 3339): the gpu
     * backend opens its release pull request once this has passed. For
     * experiments; absent, a request lives until someone releases it.
     */
    expiresAt?: string;
  };
}
