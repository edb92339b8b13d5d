/**
 * `validate`: the Kueue queues a root builds against the pools it builds
 * (gpu-common `kueue/flavorQuotaRule.ts`, the one rule): a flavor whose
 * teams' nominal quotas add up to more than its pool's limits provision is
 * reported on the flavor, as the request flow refuses it.
 */
import {
  flavorQuotaIssues,
  KUEUE_API_VERSION,
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

/** Each ClusterQueue's nominal quota on `flavor`, per resource. */
function quotasOn(root: BuiltRoot, flavor: string) {
  const byResource = new Map<string, FlavorQuota[]>();
  for (const queue of root.objects.filter(o => isKueue(o, 'ClusterQueue'))) {
    const groups = getIn(queue, 'spec', 'resourceGroups');
    for (const group of Array.isArray(groups) ? groups : []) {
      const flavors = getIn(group, 'flavors');
      for (const f of Array.isArray(flavors) ? flavors : []) {
        if (getIn(f, 'name') !== flavor) continue;
        const resources = getIn(f, 'resources');
        for (const r of Array.isArray(resources) ? resources : []) {
          const name = String(getIn(r, 'name'));
          const units = parseCount(getIn(r, 'nominalQuota')) ?? 0;
          byResource.set(name, [
            ...(byResource.get(name) ?? []),
            { team: queue.metadata.name, units },
          ]);
        }
      }
    }
  }
  return byResource;
}

/** Units of `resource` the pool's limits provision; undefined when it cannot be told. */
function capacityOf(pool: BuiltPool, resource: string) {
  const perGpu = pool.advertised?.find(a => a.resource === resource)?.perGpu;
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
      for (const [resource, quotas] of quotasOn(root, flavor.metadata.name)) {
        const issues = flavorQuotaIssues(
          {
            pool: pool.name,
            resourceName: resource,
            ...capacityOf(pool, resource),
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
