/**
 * What sizes a Cluster API pool, said in the plan (and so in the pull
 * request): nothing scales a MachineDeployment unless the Cluster API
 * cluster autoscaler manages it, so without it the pool runs exactly the
 * machines the requests on it need, and only a request or a release changes
 * that; with it, the autoscaler scales between zero and that count.
 */
import type { ClusterProfile } from '../cluster/types';
import { poolReplicas } from '../manifests/clusterApi/machineDeployment';
import type { Plan } from './types';

export function explainClusterApiSizing(
  plan: Plan,
  cluster: ClusterProfile,
): Plan {
  if (cluster.provider !== 'cluster-api' || !cluster.clusterApi) return plan;
  const machines = poolReplicas(plan);
  const line = cluster.clusterApi.autoscaler
    ? `Cluster API: the cluster autoscaler scales MachineDeployment ${plan.pool.name} between 0 and ${machines} ${plan.nodes.instanceType} machine(s), as its pods need them.`
    : `Cluster API without an autoscaler (profile clusterApi.autoscaler: false): MachineDeployment ${plan.pool.name} runs exactly ${machines} ${plan.nodes.instanceType} machine(s), what the requests on it need, idle or not; only a request or a release changes the count.`;
  return { ...plan, explanation: [...plan.explanation, line] };
}
