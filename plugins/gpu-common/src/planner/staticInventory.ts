/**
 * The one rule of a static cluster's node inventory (profile `staticNodes`):
 * a pool plans only on the machines the inventory has, never gets more nodes
 * than the inventory has free, and the plan says which nodes it gets.
 */
import type { GpuCatalog, InstanceType } from '../catalog/types';
import { pciDeviceIdsOf } from '../catalog/data/pciDeviceIds';
import type { StaticNodesSettings } from '../cluster/staticNodes';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError } from '../errors';
import { poolReplicas } from '../manifests/clusterApi/machineDeployment';
import { compareStrings } from '../text/compareStrings';
import type { Plan, RepoState } from './types';

/**
 * The first `nodes` of a static pool's nodes (sorted): what a shrinking pool keeps.
 *
 * @public
 */
export function keptStaticNodes(current: string[], nodes: number): string[] {
  return [...current].sort(compareStrings).slice(0, Math.max(0, nodes));
}

function staticMachine(
  catalog: GpuCatalog,
  name: string,
): InstanceType | undefined {
  return catalog.instanceTypes.find(
    t => t.provider === 'static' && t.name === name,
  );
}

/**
 * The catalog a static cluster with an inventory plans with: its `static`
 * machines narrowed to those the inventory has. Throws when the inventory
 * names a machine the catalog has not (the field is named).
 */
export function inventoryCatalog(
  catalog: GpuCatalog,
  cluster: ClusterProfile,
): GpuCatalog {
  const settings = cluster.staticNodes;
  if (cluster.provider !== 'static' || !settings) return catalog;
  const issues = settings.inventory.flatMap((node, i) =>
    staticMachine(catalog, node.machine)
      ? []
      : [
          {
            path: `staticNodes.inventory.${i}.machine`,
            rule: 'unknown-machine',
            message: `node "${node.name}" is machine "${node.machine}", which the catalog has not as a static machine (provider: static); add it to the catalog or name one it has`,
          },
        ],
  );
  if (issues.length > 0) throw new GpuInputError(issues);
  if (settings.select === 'gpu') checkOneMachinePerModel(catalog, settings);
  const machines = new Set(settings.inventory.map(n => n.machine));
  return {
    ...catalog,
    instanceTypes: catalog.instanceTypes.filter(
      t => t.provider !== 'static' || machines.has(t.name),
    ),
  };
}

/**
 * By GPU, a pool is every node of its model: they must be one machine, since
 * a pool is sized and priced on one machine type (as a MachineDeployment has
 * one flavor). Nodes of one model on different machines are chosen by name.
 */
function checkOneMachinePerModel(
  catalog: GpuCatalog,
  settings: StaticNodesSettings,
): void {
  const machineOfModel = new Map<string, string>();
  const issues = settings.inventory.flatMap((node, i) => {
    const model = staticMachine(catalog, node.machine)?.gpuModel;
    if (model === undefined) return [];
    const first = machineOfModel.get(model);
    if (first === undefined) machineOfModel.set(model, node.machine);
    if (first === undefined || first === node.machine) return [];
    return [
      {
        path: `staticNodes.inventory.${i}.machine`,
        rule: 'static-gpu-one-machine',
        message: `node "${node.name}" is machine "${node.machine}" and other ${model} nodes are "${first}": with select: gpu a pool is every ${model} node, sized on one machine; make them one machine, or choose nodes by name (select: name)`,
      },
    ];
  });
  if (issues.length > 0) throw new GpuInputError(issues);
}

/**
 * The nodes a static pool holds whatever its ledger needs: with
 * `select: gpu` its NodeFeatureRule labels and taints every inventory node
 * of its machines (of its model), so all of them are its capacity and its
 * cost. Undefined for every other pool (sized by its ledger).
 */
export function fixedPoolNodes(
  cluster: ClusterProfile | undefined,
  machines: readonly InstanceType[],
): number | undefined {
  const settings = cluster?.staticNodes;
  if (cluster?.provider !== 'static' || settings?.select !== 'gpu') {
    return undefined;
  }
  const names = new Set(
    machines.filter(m => m.provider === 'static').map(m => m.name),
  );
  return settings.inventory.filter(n => names.has(n.machine)).length;
}

function nodesOfMachine(
  settings: StaticNodesSettings,
  machine: string,
): string[] {
  return settings.inventory
    .filter(n => n.machine === machine)
    .map(n => n.name)
    .sort(compareStrings);
}

function exhausted(cluster: ClusterProfile, message: string): GpuInputError {
  return new GpuInputError([
    {
      path: 'spec.gpu.replicas',
      rule: 'static-inventory-exhausted',
      message: `cluster ${cluster.name} is static: ${message}`,
    },
  ]);
}

/** By GPU: the pool is every node with its model, one pool per model. */
function nodesByGpu(
  plan: Plan,
  cluster: ClusterProfile,
  catalog: GpuCatalog,
  settings: StaticNodesSettings,
  repoState: RepoState | undefined,
): string[] {
  const model = catalog.models.find(m => m.id === plan.pool.gpuModel);
  if (!model || pciDeviceIdsOf(model).length === 0) {
    throw new GpuInputError([
      {
        path: 'spec.gpu.model',
        rule: 'static-gpu-pci-unknown',
        message: `cluster ${cluster.name} chooses static nodes by GPU (staticNodes.select: gpu), but the catalog knows no PCI device id of ${plan.pool.gpuModel}; choose nodes by name (select: name) for this cluster`,
      },
    ]);
  }
  const leaving = new Map(plan.leftPools.map(p => [p.name, p.nodesAfter]));
  const holder = repoState?.pools.find(
    p =>
      p.name !== plan.pool.name &&
      p.gpuModel === plan.pool.gpuModel &&
      (leaving.get(p.name) ?? 1) > 0,
  );
  if (holder) {
    throw exhausted(
      cluster,
      `its pools choose nodes by GPU (staticNodes.select: gpu), so every ${plan.pool.gpuModel} node is pool ${holder.name}'s; pool ${plan.pool.name} cannot have any (ask for pool ${holder.name}'s sharing, or choose nodes by name)`,
    );
  }
  const machines = new Set(
    catalog.instanceTypes
      .filter(t => t.provider === 'static' && t.gpuModel === model.id)
      .map(t => t.name),
  );
  const nodes = settings.inventory
    .filter(n => machines.has(n.machine))
    .map(n => n.name)
    .sort(compareStrings);
  const own = nodesOfMachine(settings, plan.nodes.instanceType);
  const needed = poolReplicas(plan);
  if (needed > own.length) {
    throw exhausted(
      cluster,
      `pool ${plan.pool.name} needs ${needed} ${plan.nodes.instanceType} node(s) and the inventory has ${own.length} (${own.join(', ') || 'none'})`,
    );
  }
  return nodes;
}

/** By name: the pool keeps its nodes and takes free ones, sorted by name. */
function nodesByName(
  plan: Plan,
  cluster: ClusterProfile,
  settings: StaticNodesSettings,
  repoState: RepoState | undefined,
): { nodes: string[]; leftPools: Plan['leftPools'] } {
  const machine = plan.nodes.instanceType;
  const inventory = nodesOfMachine(settings, machine);
  const leftPools = plan.leftPools.map(left => {
    const current = repoState?.pools.find(p => p.name === left.name)?.nodeNames;
    return current
      ? { ...left, nodeNamesAfter: keptStaticNodes(current, left.nodesAfter) }
      : left;
  });
  const held = new Map<string, string>();
  for (const pool of repoState?.pools ?? []) {
    if (pool.name === plan.pool.name) continue;
    const left = leftPools.find(p => p.name === pool.name);
    for (const node of left
      ? (left.nodeNamesAfter ?? [])
      : (pool.nodeNames ?? [])) {
      held.set(node, pool.name);
    }
  }
  const current = (
    repoState?.pools.find(p => p.name === plan.pool.name)?.nodeNames ?? []
  ).filter(n => inventory.includes(n) && !held.has(n));
  const free = inventory.filter(n => !held.has(n) && !current.includes(n));
  const needed = poolReplicas(plan);
  if (needed > current.length + free.length) {
    const holders = [...new Set(held.values())].sort(compareStrings);
    const heldHere = inventory.filter(n => held.has(n));
    throw exhausted(
      cluster,
      `pool ${plan.pool.name} needs ${needed} ${machine} node(s); the inventory has ${inventory.length} (${inventory.join(', ') || 'none'})${heldHere.length > 0 ? `, of which ${heldHere.length} are held by ${holders.map(h => `pool ${h}`).join(', ')}` : ''}, so ${current.length + free.length} can be its; ask for fewer replicas, a smaller share, or add nodes to staticNodes.inventory`,
    );
  }
  const nodes = [
    ...keptStaticNodes(current, needed),
    ...free.slice(0, Math.max(0, needed - current.length)),
  ].sort(compareStrings);
  return { nodes, leftPools };
}

/**
 * The plan with the nodes its static pool gets (`pool.nodeNames`) and those
 * the pools it leaves keep; the plan as it is for other clusters, and for a
 * static cluster without an inventory. Throws GpuInputError
 * (`static-inventory-exhausted`) when the inventory cannot hold the pool.
 */
export function assignStaticNodes(
  plan: Plan,
  cluster: ClusterProfile,
  catalog: GpuCatalog,
  repoState: RepoState | undefined,
): Plan {
  const settings = cluster.staticNodes;
  if (cluster.provider !== 'static' || !settings) return plan;
  if (settings.select === 'gpu') {
    const nodes = nodesByGpu(plan, cluster, catalog, settings, repoState);
    return {
      ...plan,
      pool: { ...plan.pool, nodeNames: nodes },
      explanation: [
        ...plan.explanation,
        `static nodes: pool ${plan.pool.name} is every ${plan.pool.gpuModel} node (by GPU): ${nodes.join(', ')}.`,
      ],
    };
  }
  const { nodes, leftPools } = nodesByName(plan, cluster, settings, repoState);
  return {
    ...plan,
    pool: { ...plan.pool, nodeNames: nodes },
    leftPools,
    explanation: [
      ...plan.explanation,
      `static nodes: pool ${plan.pool.name} gets ${nodes.length} ${plan.nodes.instanceType} node(s) by name: ${nodes.join(', ')}.`,
    ],
  };
}
