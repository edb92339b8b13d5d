/**
 * The bootstrap's part for the bin-packing scheduler: the file that runs it
 * (`schedulerObjects.ts`) in the GPU folder, listed in its kustomization
 * like the node class, when the bootstrap is asked for it or the cluster
 * profile opts its GPU workloads in (`binPacking: true`: they would wait
 * for a scheduler nobody runs). Refused, naming the field, when the profile
 * does not say which kube-scheduler release the cluster runs.
 */
import {
  binPackingVersionProblem,
  GpuInputError,
  kubeSchedulerVersion,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { bootstrapDocuments, type BootstrapFileWrite } from '../bootstrapFile';
import { binPackingSchedulerObjects } from './schedulerObjects';

export interface BootstrapScheduler {
  /** None where it cannot run (an unlabelled Cluster API workload cluster: `notes` say why). */
  file?: BootstrapFileWrite;
  /** What the pull request says beyond the file; empty when nothing. */
  notes: string[];
}

/** The objects as one multi-document file under the bootstrap's header. */
function schedulerFileText(version: string): string {
  return bootstrapDocuments(
    binPackingSchedulerObjects(version),
    [
      `The gpu-binpack scheduler: a second kube-scheduler (${version}, the cluster's Kubernetes version) that bin-packs GPU pods.`,
      'GPU workloads opt in with schedulerName: gpu-binpack (cluster profile binPacking: true).',
    ].join('\n'),
  );
}

export function bootstrapScheduler(
  cluster: ClusterProfile,
  asked: boolean,
  path: string,
): BootstrapScheduler | undefined {
  if (!asked && !cluster.binPacking) return undefined;
  const version = kubeSchedulerVersion(cluster.kubernetesVersion);
  if (version === undefined) {
    throw new GpuInputError([
      {
        path: 'kubernetesVersion',
        rule: 'bin-packing-kubernetes-version',
        message: `cluster ${cluster.name}: ${binPackingVersionProblem(cluster.kubernetesVersion)}`,
      },
    ]);
  }
  return {
    file: {
      path,
      content: schedulerFileText(version),
      what: 'the gpu-binpack scheduler (its Deployment, RBAC and profile)',
      remedy:
        'Move it, or run the bootstrap without the bin-packing scheduler.',
    },
    notes: cluster.binPacking
      ? []
      : [
          `The gpu-binpack scheduler runs, but no GPU workload uses it yet: set \`binPacking: true\` in cluster ${cluster.name}'s profile, and requests then set \`schedulerName: gpu-binpack\`.`,
        ],
  };
}
