/**
 * Kueue's own Configuration (`config.kueue.x-k8s.io/v1beta2`, the file
 * `controller_manager_config.yaml` of ConfigMap `kueue-manager-config`), as
 * the bootstrap's release sets it through the chart's value
 * `managerConfig.controllerManagerConfigYaml`. That value is one string and
 * replaces the chart's default whole, so it starts from the default of
 * kubernetes-sigs/kueue v0.19.2 `charts/kueue/values.yaml` and adds what the
 * product's queues need:
 * - `integrations.frameworks`: upstream's default list, which holds
 *   `batch/job`, `pod` and `deployment` — the product labels Deployments
 *   with their LocalQueue (`kueue.x-k8s.io/queue-name`), admitted pod by pod
 *   through the `deployment` integration (`site/content/en/docs/tasks/run/
 *   deployment.md`);
 * - `resources.excludeResourcePrefixes`: the product's queues quota GPUs
 *   only, and Kueue leaves a workload that asks for a resource its
 *   ClusterQueue does not cover inadmissible ("resource … unavailable in
 *   ClusterQueue"), so CPU, memory and ephemeral storage stay out of quota
 *   management (`Resources.ExcludeResourcePrefixes`);
 * - `resources.deviceClassMappings`, where the profile enables DRA: the
 *   mappings gpu-common's queues count DRA claims in (`kueueDeviceClasses.ts`;
 *   `apis/config/v1beta2/configuration_types.go` `DeviceClassMapping`,
 *   `site/content/en/docs/tasks/manage/setup_dra.md`). Kueue reads them only
 *   at start; the chart's Deployment carries a checksum of this ConfigMap
 *   (`charts/kueue/templates/manager/manager.yaml`
 *   `charts.kueue.x-k8s.io/config-checksum`), so a change rolls the controller.
 * The chart fills `internalCertManagement` itself when it is absent
 * (`templates/manager/manager-config.yaml`).
 */
import {
  kueueDeviceClassMappings,
  profileEnablesDra,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { stringify } from 'yaml';

/** The chart's default integrations (v0.19.2 `charts/kueue/values.yaml`). */
export const KUEUE_FRAMEWORKS = [
  'batch/job',
  'kubeflow.org/mpijob',
  'ray.io/rayjob',
  'ray.io/rayservice',
  'ray.io/raycluster',
  'jobset.x-k8s.io/jobset',
  'workload.codeflare.dev/appwrapper',
  'trainer.kubeflow.org/trainjob',
  'pod',
  'deployment',
  'statefulset',
  'leaderworkerset.x-k8s.io/leaderworkerset',
];

/** The resources the product's queues do not quota (see above). */
export const UNQUOTED_RESOURCE_PREFIXES = [
  'cpu',
  'memory',
  'ephemeral-storage',
];

/** The Configuration for `cluster`'s queues. */
export function kueueConfiguration(
  cluster: ClusterProfile,
): Record<string, unknown> {
  return {
    apiVersion: 'config.kueue.x-k8s.io/v1beta2',
    kind: 'Configuration',
    health: { healthProbeBindAddress: ':8081' },
    metrics: { bindAddress: ':8443' },
    webhook: { port: 9443 },
    leaderElection: {
      leaderElect: true,
      resourceName: 'c1f6bfd2.kueue.x-k8s.io',
    },
    controller: {
      groupKindConcurrency: {
        'Job.batch': 5,
        Pod: 5,
        'Workload.kueue.x-k8s.io': 10,
        'LocalQueue.kueue.x-k8s.io': 5,
        'ClusterQueue.kueue.x-k8s.io': 5,
        'ResourceFlavor.kueue.x-k8s.io': 1,
      },
    },
    clientConnection: { qps: 300, burst: 500 },
    integrations: { frameworks: [...KUEUE_FRAMEWORKS] },
    resources: {
      excludeResourcePrefixes: [...UNQUOTED_RESOURCE_PREFIXES],
      ...(profileEnablesDra(cluster)
        ? { deviceClassMappings: kueueDeviceClassMappings() }
        : {}),
    },
  };
}

/** The chart's values that set it. */
export function kueueChartValues(
  cluster: ClusterProfile,
): Record<string, unknown> {
  return {
    managerConfig: {
      controllerManagerConfigYaml: stringify(kueueConfiguration(cluster)),
    },
  };
}
