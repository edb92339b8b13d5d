/**
 * `validate`: the Kueue queues a root builds against the pools it builds
 * (gpu-common `kueue/flavorQuotaRule.ts`, the one rule): a flavor whose
 * teams' nominal quotas (with a hand-written `Cohort`'s own quota there)
 * add up to more than its pool's limits provision, or on which one team can
 * reach more by borrowing, is reported on the flavor, as the request flow
 * refuses it. A Cohort's parent (`spec.parentName`) is not followed: the
 * product puts each cluster's queues in one cohort of its own.
 */
import {
  flavorQuotaIssues,
  KUEUE_API_VERSION,
  kueueResourceName,
  poolSelectedBy,
  type FlavorQuota,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn, isPlainObject, parseCount } from '../repo/yamlObjects';
import type { BuiltObject } from '../kustomize/build';
import type { BuiltPool } from './builtPools';
import type { BuiltRoot } from './builtRoots';
import type { Finding } from './findings';
import { sourceFileOf } from './sourceLocator';
import type { SourceTree } from './sourceTree';

const PHYSICAL_GPU = 'nvidia.com/gpu';

const isKueue = (o: BuiltObject, kind: string) =>
  o.apiVersion === KUEUE_API_VERSION && o.kind === kind;

interface ResourceQuota {
  resource: string;
  nominal: number;
  borrowingLimit?: number;
  lendingLimit?: number;
}

/** The quotas an object's `spec.resourceGroups` (a ClusterQueue's or a Cohort's) give `flavor`. */
function resourcesOn(object: BuiltObject, flavor: string): ResourceQuota[] {
  const groups = getIn(object, 'spec', 'resourceGroups');
  const flavors = (Array.isArray(groups) ? groups : []).flatMap(group => {
    const list = getIn(group, 'flavors');
    return Array.isArray(list) ? list : [];
  });
  return flavors
    .filter(f => getIn(f, 'name') === flavor)
    .flatMap(f => {
      const resources = getIn(f, 'resources');
      return Array.isArray(resources) ? resources : [];
    })
    .map(r => ({
      resource: String(getIn(r, 'name')),
      nominal: parseCount(getIn(r, 'nominalQuota')) ?? 0,
      borrowingLimit: parseCount(getIn(r, 'borrowingLimit')),
      lendingLimit: parseCount(getIn(r, 'lendingLimit')),
    }));
}

/**
 * Each ClusterQueue's quota on `flavor`, per resource, and what the Cohort
 * objects those queues join hold there themselves (lent to every member).
 */
function quotasOn(root: BuiltRoot, flavor: string) {
  const byResource = new Map<string, FlavorQuota[]>();
  const cohortUnits = new Map<string, number>();
  const cohorts = new Set<unknown>();
  for (const queue of root.objects.filter(o => isKueue(o, 'ClusterQueue'))) {
    for (const r of resourcesOn(queue, flavor)) {
      cohorts.add(getIn(queue, 'spec', 'cohortName'));
      byResource.set(r.resource, [
        ...(byResource.get(r.resource) ?? []),
        {
          team: queue.metadata.name,
          units: r.nominal,
          borrowingLimit: r.borrowingLimit,
          lendingLimit: r.lendingLimit,
        },
      ]);
    }
  }
  for (const cohort of root.objects.filter(
    o => isKueue(o, 'Cohort') && cohorts.has(o.metadata.name),
  )) {
    for (const r of resourcesOn(cohort, flavor)) {
      cohortUnits.set(
        r.resource,
        (cohortUnits.get(r.resource) ?? 0) + r.nominal,
      );
    }
  }
  return { byResource, cohortUnits };
}

/**
 * Units of `resource` one GPU of the pool offers: a DRA pool's claims per
 * GPU in the resource Kueue counts its DeviceClass in (its nodes run the DRA
 * driver, not the device plugin), else what the device plugin advertises.
 */
function unitsPerGpu(pool: BuiltPool, resource: string): number | undefined {
  if (pool.dra) {
    return kueueResourceName(pool.dra.deviceClass) === resource
      ? pool.dra.unitsPerGpu
      : undefined;
  }
  return pool.advertised?.find(a => a.resource === resource)?.perGpu;
}

/** Units of `resource` the pool's limits provision; undefined when it cannot be told. */
function capacityOf(pool: BuiltPool, resource: string) {
  const perGpu = unitsPerGpu(pool, resource);
  const gpus = pool.limits[PHYSICAL_GPU];
  if (perGpu === undefined) return { capacityUnits: undefined, unitsPerGpu: 1 };
  if (gpus !== undefined) {
    return { capacityUnits: gpus * perGpu, unitsPerGpu: perGpu };
  }
  return { capacityUnits: pool.limits[resource], unitsPerGpu: perGpu };
}

export function checkKueueQuotas(
  roots: BuiltRoot[],
  pools: BuiltPool[],
  source: Pick<SourceTree, 'docs' | 'patchFiles'>,
  labelDomain: string,
  findings: Finding[],
): void {
  for (const root of roots) {
    for (const flavor of root.objects.filter(o =>
      isKueue(o, 'ResourceFlavor'),
    )) {
      const nodeLabels = getIn(flavor, 'spec', 'nodeLabels');
      const poolName = isPlainObject(nodeLabels)
        ? poolSelectedBy(nodeLabels, labelDomain)
        : undefined;
      const pool =
        pools.find(p => p.root === root && p.name === poolName) ??
        pools.find(p => p.name === poolName);
      if (!pool) continue;
      const { byResource, cohortUnits } = quotasOn(root, flavor.metadata.name);
      for (const [resource, quotas] of byResource) {
        const issues = flavorQuotaIssues(
          {
            pool: pool.name,
            resourceName: resource,
            ...capacityOf(pool, resource),
            cohortUnits: cohortUnits.get(resource),
          },
          quotas,
          labelDomain,
        );
        findings.push(
          ...issues.map(issue => ({
            file: sourceFileOf(source, root, flavor),
            object: `ResourceFlavor/${flavor.metadata.name}`,
            rule: issue.rule,
            message: issue.message,
          })),
        );
      }
    }
  }
}
