/**
 * TEST-ONLY: an on-prem rack as a catalog override (static machines, owned
 * hardware: price 0) and the node inventory of a static cluster profile.
 */
import { builtinCatalog } from '../../catalog/builtin';
import { mergeCatalog } from '../../catalog/override';
import { resolveClusterProfile } from '../../cluster/schema';
import type { Plan, PoolState } from '../../planner/types';

export const STATIC_RACK_MACHINES = {
  instanceTypes: [
    ['rack-t4x2', 't4', 2, 128, 32],
    ['rack-a100x4', 'a100-40gb', 4, 512, 64],
  ].map(([name, gpuModel, gpusPerNode, ramGB, vcpu]) => ({
    name,
    family: 'rack',
    provider: 'static',
    gpuModel,
    gpusPerNode,
    vcpu,
    memoryMiB: Number(ramGB) * 1024,
    onDemandUsdPerHour: 0,
  })),
};

export const staticRackCatalog = mergeCatalog(
  builtinCatalog,
  STATIC_RACK_MACHINES,
);

/** Three T4 nodes and two A100 nodes. */
export const STATIC_INVENTORY = [
  { name: 'gpu-t4-03', machine: 'rack-t4x2' },
  { name: 'gpu-t4-01', machine: 'rack-t4x2' },
  { name: 'gpu-t4-02', machine: 'rack-t4x2' },
  { name: 'gpu-a100-01', machine: 'rack-a100x4' },
  { name: 'gpu-a100-02', machine: 'rack-a100x4' },
];

export function staticCluster(
  select: 'name' | 'gpu',
  extra: Record<string, unknown> = {},
) {
  return resolveClusterProfile({
    name: `rack-${select}`,
    provider: 'static',
    migStrategy: 'single',
    staticNodes: { select, inventory: STATIC_INVENTORY },
    ...extra,
  });
}

/** The pool a plan leaves in the repository, as readRepoState reads it back. */
export function poolStateOf(thePlan: Plan): PoolState {
  return {
    name: thePlan.pool.name,
    path: `clusters/${thePlan.cluster}/gpu/nodepools/${thePlan.pool.name}.yaml`,
    gpuModel: thePlan.pool.gpuModel,
    sharingMode: thePlan.sharing.mode,
    ...(thePlan.sharing.slicesPerGpu !== undefined
      ? { slicesPerGpu: thePlan.sharing.slicesPerGpu }
      : {}),
    ...(thePlan.sharing.migProfile !== undefined
      ? { migProfile: thePlan.sharing.migProfile }
      : {}),
    resourceName: thePlan.resourceName,
    instanceTypes: [thePlan.nodes.instanceType],
    capacityTypes: ['on-demand'],
    ...(thePlan.sharing.deviceConfigName
      ? { deviceConfigName: thePlan.sharing.deviceConfigName }
      : {}),
    ...(thePlan.sharing.migConfigName
      ? { migConfigName: thePlan.sharing.migConfigName }
      : {}),
    limits: thePlan.pool.limits,
    taints: [thePlan.pool.taint],
    managed: true,
    ledger: thePlan.pool.ledger,
    ...(thePlan.pool.nodeNames ? { nodeNames: thePlan.pool.nodeNames } : {}),
  };
}
