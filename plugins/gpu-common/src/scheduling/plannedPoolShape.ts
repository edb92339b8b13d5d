/**
 * The shape of the nodes of a plan's pool (`nodeShape.ts`), for the workload
 * patch's reading of an existing workload's own selectors
 * (`manifests/existingSelectors.ts`): the pool objects the cluster's
 * provider builds for the plan, read by `nodeShapeOf` like every other
 * pool of the model, with two facts the built objects alone do not give:
 *
 * - a reused pool's own labels and requirements as its file has them
 *   (`PoolPlan.nodeLabels`: a hand-written NodePool's team labels), as
 *   requirements its nodes meet besides the built ones;
 * - on Karpenter, the labels its provider derives from the names of the
 *   instance types the pool allows (EC2 family and size): a NodeClaim
 *   carries the requirements of the instance type it launches
 *   (kubernetes-sigs/karpenter v1.14.1 `pkg/controllers/provisioning/
 *   scheduling/nodeclaim.go`), so a family the pool's instance types exclude
 *   is on none of its nodes although the family label is well-known.
 */
import type { ClusterProfile } from '../cluster/types';
import type { NodeSelectorRequirement } from '../manifests/nodePool';
import type { Plan } from '../planner/types';
import { machineNameLabelsOf } from '../providers/karpenterMachines';
import { poolProviderOf } from '../providers/poolProviders';
import type { PoolNodeShape } from './nodeShape';
import { nodeShapeOf, type PoolObjectLike } from './nodeShapeOf';

/** A reused pool's file labels: `In` its values, `Exists` for any value. */
function fileRequirements(plan: Plan): NodeSelectorRequirement[] {
  return Object.entries(plan.pool.nodeLabels ?? {}).map(([key, values]) =>
    values === 'any'
      ? { key, operator: 'Exists' }
      : { key, operator: 'In', values: [...values] },
  );
}

/** Each label every instance type of the pool carries, `In` the values they have. */
function instanceTypeRequirements(
  plan: Plan,
  cluster: ClusterProfile,
): NodeSelectorRequirement[] {
  const labels = plan.pool.instanceTypes.map(name =>
    machineNameLabelsOf(cluster, name),
  );
  if (labels.length === 0) return [];
  return Object.keys(labels[0])
    .filter(key => labels.every(l => l[key] !== undefined))
    .map(key => ({
      key,
      operator: 'In',
      values: [...new Set(labels.map(l => l[key]))].sort(),
    }));
}

/** The shape of the nodes of the plan's pool (see the file's comment). */
export function plannedPoolShape(
  plan: Plan,
  cluster: ClusterProfile,
): PoolNodeShape {
  const provider = poolProviderOf(cluster);
  const objects = provider.poolObjects(plan, cluster);
  const pool: PoolObjectLike = objects.find(
    o => o.kind === provider.poolKind,
  ) ?? {
    kind: provider.poolKind,
    metadata: { name: plan.pool.name },
    spec: { template: { metadata: { labels: plan.pool.labels } } },
  };
  const shape = nodeShapeOf(pool, { objects });
  const extra = [...fileRequirements(plan)];
  if (shape.launchesWellKnown) {
    extra.push(...instanceTypeRequirements(plan, cluster));
  }
  return { ...shape, requirements: [...shape.requirements, ...extra] };
}
