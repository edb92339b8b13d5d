/**
 * The acceptance on each provider: for every sharing mode the
 * provider allows, the pods of the generated workload can land on the pool
 * the plan chose and on no other pool planned beside it. Pools are read
 * from the rendered pool objects (NodePool, MachineDeployment with its
 * KubeadmConfigTemplate, NodeFeatureRule), their GPU resources from the
 * rendered device-plugin and mig-parted configs.
 */
import { landingPools } from './landingPools';
import { podSchedulingOf } from './podScheduling';
import { PROVIDERS, planEveryMode } from './__testUtils__/plannedPools';

describe('the model places each generated workload on exactly its planned pool', () => {
  for (const [provider, cluster, catalog] of PROVIDERS) {
    it(`${provider}: every sharing mode it allows`, () => {
      const planned = planEveryMode(cluster, catalog);
      expect(planned.length).toBeGreaterThanOrEqual(4);
      const shapes = planned.map(p => p.shape);
      expect(new Set(shapes.map(s => s.pool)).size).toBe(shapes.length);
      for (const { thePlan, podSpec } of planned) {
        const landing = landingPools(podSchedulingOf(podSpec), shapes);
        expect({ mode: thePlan.sharing.mode, pools: landing.pools }).toEqual({
          mode: thePlan.sharing.mode,
          pools: [thePlan.pool.name],
        });
      }
    });
  }
});
