/**
 * What the NVIDIA device plugin advertises on a GPU node, from the config
 * it reads and the MIG layout: the resource names and counts pods can ask
 * for (gpu-node `validate/` reads them per built pool; the scheduling
 * model judges pods against them).
 */
import type { MigStrategy } from '../cluster/types';
import type { AdvertisedNodeResource } from './nodeShape';

function isPlainObject(value: unknown): value is Record<string, unknown> {
  return typeof value === 'object' && value !== null && !Array.isArray(value);
}

function getIn(value: unknown, ...path: string[]): unknown {
  return path.reduce<unknown>(
    (at, key) => (isPlainObject(at) ? at[key] : undefined),
    value,
  );
}

/** A count as YAML writes it: an integer or a string of digits. */
function parseCount(value: unknown): number | undefined {
  if (typeof value === 'number' && Number.isFinite(value)) return value;
  if (typeof value === 'string' && /^\d+$/.test(value.trim())) {
    return Number(value.trim());
  }
  return undefined;
}

/**
 * One extended resource a GPU node advertises, and how many per physical GPU.
 *
 * @public
 */
export interface AdvertisedResource {
  resource: string;
  perGpu: number;
}

/** The device plugin's resource prefix (k8s-device-plugin api/config/v1/resources.go `NewResourceName`). */
const RESOURCE_PREFIX = 'nvidia.com/';

function qualified(name: string): string {
  return name.startsWith(RESOURCE_PREFIX) ? name : `${RESOURCE_PREFIX}${name}`;
}

/**
 * MIG instances per GPU of a mig-parted entry list: the `mig-devices` of
 * its enabled entries (the largest count of each profile when several
 * entries name it for different devices). Empty when MIG is off.
 *
 * @public
 */
export function migInstancesPerGpu(entries: unknown): Map<string, number> {
  const out = new Map<string, number>();
  for (const entry of Array.isArray(entries) ? entries : []) {
    const devices = getIn(entry, 'mig-devices');
    if (getIn(entry, 'mig-enabled') !== true || !isPlainObject(devices)) {
      continue;
    }
    for (const [profile, count] of Object.entries(devices)) {
      const n = parseCount(count) ?? 0;
      out.set(profile, Math.max(out.get(profile) ?? 0, n));
    }
  }
  return out;
}

/**
 * What the NVIDIA device plugin advertises on a node, per physical GPU:
 *
 * - whole GPUs: `nvidia.com/gpu`, 1 each;
 * - MIG (mig-parted entry with `mig-enabled: true`): with the `mixed`
 *   strategy one `nvidia.com/mig-<profile>` per profile, as many as the
 *   entry makes; with `single` they all are `nvidia.com/gpu`. The strategy
 *   is the cluster's (ClusterPolicy `mig.strategy`, set on the plugin as
 *   MIG_STRATEGY, which takes precedence over the config file's
 *   `flags.migStrategy`: k8s-device-plugin api/config/v1/config.go
 *   `NewConfig`, v0.17); when it is not known, what either would advertise;
 * - sharing (`sharing.mps`, else `sharing.timeSlicing`): each listed
 *   resource is multiplied by its `replicas` and, with `renameByDefault`,
 *   advertised as `<name>.shared`. A per-resource `rename` or `devices` is
 *   ignored by the plugin (cmd/nvidia-device-plugin/main.go
 *   `disableResourceRenamingInConfig`), so it is here too.
 *
 * @public
 */
export function advertisedResources(
  deviceConfig: unknown,
  migEntries: unknown,
  migStrategy: MigStrategy | undefined,
): AdvertisedResource[] {
  const mig = migInstancesPerGpu(migEntries);
  let resources: AdvertisedResource[] = [];
  if (mig.size === 0) {
    resources = [{ resource: `${RESOURCE_PREFIX}gpu`, perGpu: 1 }];
  } else {
    if (migStrategy !== 'single') {
      resources = [...mig].map(([profile, perGpu]) => ({
        resource: `${RESOURCE_PREFIX}mig-${profile}`,
        perGpu,
      }));
    }
    if (migStrategy !== 'mixed') {
      resources.push({
        resource: `${RESOURCE_PREFIX}gpu`,
        perGpu: Math.max(...mig.values()),
      });
    }
  }
  // MPS wins when it lists resources (api/config/v1/sharing.go `SharingStrategy`).
  const mps = getIn(deviceConfig, 'sharing', 'mps');
  const sharing = Array.isArray(getIn(mps, 'resources'))
    ? mps
    : getIn(deviceConfig, 'sharing', 'timeSlicing');
  const replicated = getIn(sharing, 'resources');
  const rename = getIn(sharing, 'renameByDefault') === true;
  for (const entry of Array.isArray(replicated) ? replicated : []) {
    const name = getIn(entry, 'name');
    const replicas = parseCount(getIn(entry, 'replicas'));
    if (typeof name !== 'string' || replicas === undefined) continue;
    resources = resources.map(r =>
      r.resource === qualified(name)
        ? {
            resource: rename ? `${r.resource}.shared` : r.resource,
            perGpu: r.perGpu * replicas,
          }
        : r,
    );
  }
  return resources;
}

/**
 * What one node advertises: each resource per GPU times the node's GPUs;
 * the count is unknown when the machine's GPUs are.
 *
 * @public
 */
export function advertisedPerNode(
  advertised: readonly AdvertisedResource[],
  gpusPerNode: number | undefined,
): AdvertisedNodeResource[] {
  return advertised.map(a => ({
    name: a.resource,
    ...(gpusPerNode !== undefined ? { perNode: a.perGpu * gpusPerNode } : {}),
  }));
}
