import type {
  GpuCatalog,
  InstanceType,
  MachineProvider,
} from '../../catalog/types';
import { GpuInputError } from '../../errors';
import type { Plan } from '../../planner/types';

/**
 * The catalog machine a Cluster API pool's nodes are: the plan's instance
 * type among the infrastructure's machines. `purpose` says what needs its
 * facts (its vCPUs and memory, its VM shape), for the refusal when the
 * catalog the pool is rendered with lacks it.
 */
export function catalogMachineOf(
  plan: Plan,
  catalog: GpuCatalog | undefined,
  provider: MachineProvider,
  purpose: string,
): InstanceType {
  const name = plan.nodes.instanceType;
  const machine = catalog?.instanceTypes.find(
    t => t.provider === provider && t.name === name,
  );
  if (!machine) {
    throw new GpuInputError([
      {
        path: 'catalog.instanceTypes',
        rule: 'cluster-api-machine',
        message: `the catalog has no ${provider} machine "${name}" for pool ${plan.pool.name}: ${purpose}; add it to the catalog (provider: ${provider})`,
      },
    ]);
  }
  return machine;
}
