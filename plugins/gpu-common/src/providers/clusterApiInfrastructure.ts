import type { GpuCatalog, MachineProvider } from '../catalog/types';
import type {
  ClusterApiInfrastructure,
  ClusterApiSettings,
} from '../cluster/clusterApi';
import type { ClusterProfile } from '../cluster/types';
import type { KubernetesObject } from '../manifests/types';
import type { Plan } from '../planner/types';

/**
 * What differs between the Cluster API infrastructure providers: the
 * catalog machines their pools run on and the machine template that says
 * so. The MachineDeployment and the KubeadmConfigTemplate are the same for
 * all (`clusterApiPool.ts`), so adding an infrastructure is one file here.
 */
export interface ClusterApiInfrastructureProvider {
  /** The profile's `clusterApi.infrastructure` value. */
  readonly infrastructure: ClusterApiInfrastructure;
  /** Shown beside a cluster's name in the request form, e.g. `Cluster API (vSphere)`. */
  readonly displayName: string;
  /** Whose machine shapes of the catalog the cluster can get. */
  readonly machines: MachineProvider;
  /**
   * The machine template of the plan's pool, named by its content;
   * `catalog` for the machine facts the plan does not carry.
   */
  machineTemplate(
    plan: Plan,
    cluster: ClusterProfile,
    settings: ClusterApiSettings,
    catalog: GpuCatalog | undefined,
  ): KubernetesObject;
}
