/**
 * The typed Kubernetes objects (and config entries) a plan renders to,
 * grouped by where they belong in the GitOps repository. Paths are decided by
 * the repository layout in `plugins/gpu-node`, never here.
 */

/**
 *  A Kubernetes object as plain data (apiVersion, kind, metadata, ...).
 *
 * @public
 */
export interface KubernetesObject {
  apiVersion: string;
  kind: string;
  metadata: { name: string; namespace?: string; [key: string]: unknown };
  [key: string]: unknown;
}

/**
 *  NVIDIA device-plugin config file (`version: v1`), as plain data.
 *
 * @public
 */
export interface DevicePluginConfig {
  version: 'v1';
  flags?: Record<string, unknown>;
  sharing?: {
    timeSlicing?: SharingResources;
    mps?: SharingResources;
  };
}

/** @public */
export interface SharingResources {
  renameByDefault?: boolean;
  failRequestsGreaterThanOne?: boolean;
  resources: { name: string; replicas: number }[];
}

/**
 *  One entry of a mig-parted `mig-configs` list.
 *
 * @public
 */
export interface MigConfigEntry {
  'device-filter'?: string[];
  devices: 'all' | number[];
  'mig-enabled': boolean;
  'mig-devices'?: Record<string, number>;
}

/** @public */
export interface ManifestSet {
  /** NodePool first, then its NodeOverlays, then an EC2NodeClass when generated. */
  pool: { name: string; objects: KubernetesObject[] };
  /** Named device-plugin config (a key of the device-plugin ConfigMap). */
  devicePluginConfig?: { name: string; config: DevicePluginConfig };
  /** Named mig-parted config (a key under `mig-configs`). */
  migConfig?: { name: string; entries: MigConfigEntry[] };
  /**
   * The workload: a new Deployment (+ ResourceClaimTemplate for DRA), or a
   * strategic-merge patch of an existing workload.
   */
  workload: {
    namespace: string;
    component: string;
    mode: 'new' | 'patch';
    objects: KubernetesObject[];
  };
}
