/**
 * The bin-packing scheduler's KubeSchedulerConfiguration
 * (`kubescheduler.config.k8s.io/v1`, the kube-scheduler `--config` file):
 * one profile, `gpu-binpack`, that scores nodes MostAllocated so partly used
 * GPU nodes fill up and empty ones can be consolidated, and leader election
 * on a lease of its own, so its replicas never contend with the default
 * scheduler's `kube-scheduler` lease.
 */
import {
  BIN_PACKING_SCHEDULER_NAME,
  BIN_PACKING_SCHEDULER_NAMESPACE,
} from '@gpu-gitops/plugin-gpu-common';

export function binPackingSchedulerConfig(): Record<string, unknown> {
  return {
    apiVersion: 'kubescheduler.config.k8s.io/v1',
    kind: 'KubeSchedulerConfiguration',
    leaderElection: {
      leaderElect: true,
      resourceLock: 'leases',
      resourceName: BIN_PACKING_SCHEDULER_NAME,
      resourceNamespace: BIN_PACKING_SCHEDULER_NAMESPACE,
    },
    profiles: [
      {
        schedulerName: BIN_PACKING_SCHEDULER_NAME,
        pluginConfig: [
          {
            name: 'NodeResourcesFit',
            args: {
              scoringStrategy: {
                type: 'MostAllocated',
                // Replaces the default [cpu, memory]: list them explicitly.
                resources: [
                  { name: 'cpu', weight: 1 },
                  { name: 'memory', weight: 1 },
                  { name: 'nvidia.com/gpu', weight: 5 },
                  { name: 'nvidia.com/gpu.shared', weight: 5 },
                ],
              },
            },
          },
        ],
      },
    ],
  };
}
