/**
 * The shape of the nodes of a plan's pool (`nodeShape.ts`), for the workload
 * patch's reading of an existing workload's own selectors
 * (`manifests/existingSelectors.ts`): the pool objects the cluster's
 * provider builds for the plan, read by `nodeShapeOf` like every other
 * pool of the model (which also narrows the well-known labels by the
 * names of the instance types a NodePool allows: EC2 family and size), with
 * a reused pool's own labels and requirements as its file has them
 * (`PoolPlan.nodeLabels`: a hand-written NodePool's team labels) as
 * requirements its nodes meet besides the built ones.
 */
import type { ClusterProfile } from '../cluster/types';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import type { Plan } from '../planner/types';
import { poolProviderOf } from '../providers/poolProviders';
import type { PoolNodeShape } from './nodeShape';
import { nodeShapeOf, type PoolObjectLike } from './nodeShapeOf';
import { poolGpuProducts } from './poolGpuProducts';

/** A reused pool's file labels: `In` its values, `Exists` for any value. */
function fileRequirements(plan: Plan): NodeSelectorRequirement[] {
  return Object.entries(plan.pool.nodeLabels ?? {}).map(([key, values]) =>
    values === 'any'
      ? { key, operator: 'Exists' }
      : { key, operator: 'In', values: [...values] },
  );
}

/**
 * What GPU Feature Discovery names the GPUs of the plan's pool
 * (`poolGpuProducts.ts`, the rule every node shape follows).
 */
export function plannedGpuProducts(
  plan: Plan,
  cluster: ClusterProfile,
): string[] | undefined {
  const { mode, migProfile, slicesPerGpu } = plan.sharing;
  return poolGpuProducts(
    {
      gpuModel: plan.pool.gpuModel,
      sharingMode: mode,
      ...(slicesPerGpu !== undefined ? { slicesPerGpu } : {}),
      ...(migProfile !== undefined ? { migProfile } : {}),
      resourceName: plan.resourceName,
    },
    cluster.migStrategy,
  );
}

/** The shape of the nodes of the plan's pool (see the file's comment). */
export function plannedPoolShape(
  plan: Plan,
  cluster: ClusterProfile,
): PoolNodeShape {
  const provider = poolProviderOf(cluster);
  // A Cluster API pool's objects need the catalog (its machine template);
  // the labels its nodes carry are the plan's pool labels either way (the
  // kubelet's `node-labels`, the NodeFeatureRule's labels).
  const objects = provider.karpenter ? provider.poolObjects(plan, cluster) : [];
  const pool: PoolObjectLike = objects.find(
    o => o.kind === provider.poolKind,
  ) ?? {
    kind: provider.poolKind,
    metadata: { name: plan.pool.name },
    spec: { template: { metadata: { labels: plan.pool.labels } } },
  };
  const shape = nodeShapeOf(pool, { objects });
  const gpuProducts = plannedGpuProducts(plan, cluster);
  return {
    ...shape,
    ...(gpuProducts ? { gpuProducts } : {}),
    requirements: [...shape.requirements, ...fileRequirements(plan)],
  };
}
