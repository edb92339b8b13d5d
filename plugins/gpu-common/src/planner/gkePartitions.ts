import type { GpuCatalog } from '../catalog/types';
import type { ClusterProfile } from '../cluster/types';

/**
 * The MIG partition sizes GKE creates, per model (GKE docs "Running
 * multi-instance GPUs", supported partitions: A100 40GB 1g.5gb, 2g.10gb,
 * 3g.20gb, 7g.40gb; A100 80GB 1g.10gb, 2g.20gb, 3g.40gb, 7g.80gb; H100 80GB
 * 1g.10gb, 1g.20gb, 2g.20gb, 3g.40gb, 4g.40gb, 7g.80gb). GKE partitions
 * every GPU of a node in one size, as many as fit.
 */
const GKE_PARTITION_SIZES: Readonly<Record<string, readonly string[]>> = {
  'a100-40gb': ['1g.5gb', '2g.10gb', '3g.20gb', '7g.40gb'],
  'a100-80gb': ['1g.10gb', '2g.20gb', '3g.40gb', '7g.80gb'],
  'h100-80gb': [
    '1g.10gb',
    '1g.20gb',
    '2g.20gb',
    '3g.40gb',
    '4g.40gb',
    '7g.80gb',
  ],
};

/**
 * The catalog a GKE cluster plans with: each model's MIG profiles only
 * those GKE creates (a model GKE does not partition has none), so the
 * planner never chooses a profile the ComputeClass cannot ask for. Other
 * clusters' catalog as it is.
 */
export function gkePartitionCatalog(
  catalog: GpuCatalog,
  cluster: Pick<ClusterProfile, 'provider'>,
): GpuCatalog {
  if (cluster.provider !== 'gke') return catalog;
  return {
    ...catalog,
    models: catalog.models.map(model => {
      if (!model.mig) return model;
      const sizes = GKE_PARTITION_SIZES[model.id] ?? [];
      const profiles = model.mig.profiles.filter(p => sizes.includes(p.name));
      if (profiles.length === 0) {
        const whole = { ...model };
        delete whole.mig;
        return whole;
      }
      return { ...model, mig: { ...model.mig, profiles } };
    }),
  };
}
