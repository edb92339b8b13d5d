/**
 * The bin-packing scheduler on a Cluster API management repository: its
 * kube-scheduler must run in the workload cluster, where the GPU pods it
 * places are; listed as it is elsewhere, the management cluster would run it
 * and the workload cluster's `schedulerName: gpu-binpack` pods would wait
 * for ever. So its file (`scheduler/gpu-binpack.yaml`) becomes a ConfigMap
 * holding its manifests, which the GPU configs' ClusterResourceSet carries
 * too (`gpuConfigsDelivery.ts`): the management cluster applies only that
 * ConfigMap. Unlike the GPU configs it never changes with a request, so the
 * ClusterResourceSet's `Reconcile` strategy keeps it as written. A Cluster
 * without labels cannot be selected: the scheduler is then left out, and
 * the note says what to label.
 */
import { MANAGED_BY, WELL_KNOWN_KEYS } from '@gpu-gitops/plugin-gpu-common';
import { bootstrapDocuments } from '../bootstrap/bootstrapFile';
import type { BootstrapScheduler } from '../bootstrap/scheduler/bootstrapScheduler';
import type { WorkloadCluster } from './managementCluster';

/** A ConfigMap in the ClusterResourceSet's namespace whose data the set applies. */
export interface CarriedResource {
  kind: 'ConfigMap';
  name: string;
}

/** The key of the carrier ConfigMap holding the scheduler's manifests. */
export const SCHEDULER_KEY = 'gpu-binpack.yaml';

export const schedulerCarrierName = (cluster: string) =>
  `${cluster}-gpu-binpack`;

export interface DeliveredScheduler {
  /** The scheduler's bootstrap file, as the repository holds it; none when it cannot be delivered. */
  scheduler?: BootstrapScheduler;
  /** What the GPU configs' ClusterResourceSet carries besides them. */
  carried: CarriedResource[];
}

/** The scheduler as `workload`'s management repository delivers it; as it was elsewhere. */
export function deliveredScheduler(
  scheduler: BootstrapScheduler | undefined,
  workload: WorkloadCluster | undefined,
): DeliveredScheduler {
  if (!scheduler?.file || !workload) return { scheduler, carried: [] };
  if (Object.keys(workload.labels).length === 0) {
    return {
      carried: [],
      scheduler: {
        file: undefined,
        notes: [
          `The gpu-binpack scheduler is not written: this folder is applied to the Cluster API management cluster, and the scheduler must run in the workload cluster \`${workload.name}\`, whose Cluster has no labels a ClusterResourceSet could select. Label it (e.g. \`gpu-configs: ${workload.name}\`), then run the bootstrap again.`,
        ],
      },
    };
  }
  const name = schedulerCarrierName(workload.name);
  const file = scheduler.file;
  const carrier = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: workload.namespace,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
    },
    data: { [SCHEDULER_KEY]: file.content },
  };
  return {
    carried: [{ kind: 'ConfigMap', name }],
    scheduler: {
      file: {
        ...file,
        content: bootstrapDocuments(
          [carrier],
          `The gpu-binpack scheduler's manifests, for the workload cluster ${workload.name}: ClusterResourceSet ${workload.namespace}/${workload.name}-gpu-configs applies them there.`,
        ),
      },
      notes: [
        ...scheduler.notes,
        `The gpu-binpack scheduler runs in the workload cluster \`${workload.name}\`, where the GPU pods are: its manifests are ConfigMap \`${workload.namespace}/${name}\` (\`${file.path}\`), which the GPU configs' ClusterResourceSet carries there; the management cluster applies only that ConfigMap.`,
      ],
    },
  };
}
