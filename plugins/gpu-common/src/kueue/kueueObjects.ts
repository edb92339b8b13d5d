/**
 * Kueue's objects for a cluster's GPU pools and teams, shaped by
 * kubernetes-sigs/kueue v0.19.2 `apis/kueue/v1beta2/{resourceflavor,
 * clusterqueue,localqueue}_types.go` (the vendored CRDs the tests validate
 * against: `manifests/__testUtils__/crds/kueue-v0.19.2_*`).
 */
import { MANAGED_BY, WELL_KNOWN_KEYS } from '../manifests/metadataKeys';
import type { NodeTaint } from '../manifests/tolerations';
import { KUEUE_API_VERSION } from './kueueNames';

/** @public */
export interface KueueObject {
  apiVersion: typeof KUEUE_API_VERSION;
  kind: 'ResourceFlavor' | 'ClusterQueue' | 'LocalQueue';
  metadata: {
    name: string;
    namespace?: string;
    labels: Record<string, string>;
  };
  spec: Record<string, unknown>;
}

const managedLabels = () => ({ [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY });

/**
 * A pool's flavor: the label its nodes carry before they exist (so Kueue's
 * node selector on an admitted pod still lets the autoscaler launch one),
 * its taints, and tolerations of them, which Kueue adds to admitted pods.
 */
export function resourceFlavor(
  pool: string,
  nodeLabels: Record<string, string>,
  taints: readonly NodeTaint[],
): KueueObject {
  const spec: Record<string, unknown> = { nodeLabels };
  if (taints.length > 0) {
    spec.nodeTaints = taints.map(t => ({ ...t }));
    spec.tolerations = taints.map(t =>
      t.value === undefined
        ? { key: t.key, operator: 'Exists', effect: t.effect }
        : { key: t.key, operator: 'Equal', value: t.value, effect: t.effect },
    );
  }
  return {
    apiVersion: KUEUE_API_VERSION,
    kind: 'ResourceFlavor',
    metadata: { name: pool, labels: managedLabels() },
    spec,
  };
}

/** One team's quota on one flavor (limits: undefined = none, as Kueue reads an absent field). */
export interface FlavorResourceQuota {
  flavor: string;
  resourceName: string;
  units: number;
  borrowingLimit?: number;
  lendingLimit?: number;
}

/** A flavor's entry for one resource: `nominalQuota`, and the cohort limits the team's policy states. */
function resourceQuota(q: FlavorResourceQuota) {
  return {
    name: q.resourceName,
    nominalQuota: q.units,
    ...(q.borrowingLimit === undefined
      ? {}
      : { borrowingLimit: q.borrowingLimit }),
    ...(q.lendingLimit === undefined ? {} : { lendingLimit: q.lendingLimit }),
  };
}

/**
 * A resource group per resource name: Kueue requires every flavor of a group
 * to list the group's `coveredResources`, and each pool offers one resource.
 */
function resourceGroups(quotas: readonly FlavorResourceQuota[]) {
  const byResource = new Map<string, FlavorResourceQuota[]>();
  for (const q of [...quotas].sort((a, b) =>
    a.flavor.localeCompare(b.flavor),
  )) {
    byResource.set(q.resourceName, [
      ...(byResource.get(q.resourceName) ?? []),
      q,
    ]);
  }
  return [...byResource.entries()]
    .sort(([a], [b]) => a.localeCompare(b))
    .map(([resourceName, flavors]) => ({
      coveredResources: [resourceName],
      flavors: flavors.map(f => ({
        name: f.flavor,
        resources: [resourceQuota(f)],
      })),
    }));
}

/** A team's ClusterQueue: its namespaces, its cohort, its quota per flavor. */
export function clusterQueue(
  name: string,
  cohort: string,
  namespaces: readonly string[],
  quotas: readonly FlavorResourceQuota[],
): KueueObject {
  return {
    apiVersion: KUEUE_API_VERSION,
    kind: 'ClusterQueue',
    metadata: { name, labels: managedLabels() },
    spec: {
      cohortName: cohort,
      namespaceSelector: {
        matchExpressions: [
          {
            key: 'kubernetes.io/metadata.name',
            operator: 'In',
            values: [...namespaces].sort(),
          },
        ],
      },
      resourceGroups: resourceGroups(quotas),
    },
  };
}

/** The LocalQueue a namespace's workloads name to reach their team's ClusterQueue. */
export function localQueue(name: string, namespace: string): KueueObject {
  return {
    apiVersion: KUEUE_API_VERSION,
    kind: 'LocalQueue',
    metadata: { name, namespace, labels: managedLabels() },
    spec: { clusterQueue: name },
  };
}
