import {
  mergeCatalog,
  plan,
  type RepoState,
} from '@gpu-gitops/plugin-gpu-common';
import { gpuRequest } from '@gpu-gitops/plugin-gpu-common/src/planner/__testUtils__/fixtures';
import {
  poolStateOf,
  STATIC_RACK_MACHINES,
  staticCluster,
  staticRackCatalog,
} from '@gpu-gitops/plugin-gpu-common/src/providers/__testUtils__/staticRack';
import { emptySnapshot } from '../repoIndex/indexSnapshot';
import { AllocationQueries } from './AllocationQueries';

describe('AllocationQueries', () => {
  it('prices a pool with its cluster’s profile, as the planner does: a by-GPU static pool is every node of its model', () => {
    // A T4 rack node at $1.00 an hour; the inventory has three of them.
    const catalog = mergeCatalog(staticRackCatalog, {
      instanceTypes: STATIC_RACK_MACHINES.instanceTypes.map(t => ({
        ...t,
        onDemandUsdPerHour: t.name === 'rack-t4x2' ? 1 : 0,
      })),
    });
    const cluster = staticCluster('gpu');
    const thePlan = plan(
      gpuRequest({ model: 't4', sharing: 'exclusive', replicas: 1 }),
      catalog,
      cluster,
    );
    const repoState: RepoState = {
      pools: [poolStateOf(thePlan)],
      devicePluginConfigs: {},
      migConfigs: {},
      workloads: [],
    };
    const snapshot = emptySnapshot();
    snapshot.clusters.set(cluster.name, {
      profile: cluster,
      repoState,
      bootstrapped: true,
      kustomizationPath: `clusters/${cluster.name}/gpu/kustomization.yaml`,
    });

    const cost = new AllocationQueries(catalog)
      .context(snapshot)
      .poolCost(cluster.name, thePlan.pool.name)!;

    // The card and the tab show what the pull request showed.
    expect(cost.nodes).toBe(thePlan.cost.pool.nodes);
    expect(cost.nodes).toBe(3);
    expect(cost.capacityUnits).toBe(thePlan.cost.pool.capacityUnits);
    expect(cost.totalCents).toBe(
      Math.round(thePlan.cost.pool.usdPerMonth * 100),
    );
    expect(cost.idleCents).toBe(
      Math.round(thePlan.cost.pool.idleUsdPerMonth * 100),
    );
  });
});
