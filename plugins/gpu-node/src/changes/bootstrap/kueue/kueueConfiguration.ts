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
  missingDeviceClassMappings,
  profileEnablesDra,
  type ClusterProfile,
  type KueueDeviceClassMapping,
} from '@gpu-gitops/plugin-gpu-common';
import { stringify } from 'yaml';
import { getIn } from '../../../repo/yamlObjects';

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

/** What a Configuration the product did not write lacks of what the queues need. */
export interface KueueConfigurationGaps {
  /** The `deployment` integration is off. */
  deploymentIntegration: boolean;
  /** `resources.excludeResourcePrefixes` as it must be set (its own prefixes and the missing ones), or [] when it covers CPU, memory and storage. */
  excludeResourcePrefixes: string[];
  /** The DRA mappings it lacks, where the profile enables DRA. */
  deviceClassMappings: KueueDeviceClassMapping[];
}

const strings = (value: unknown): string[] =>
  Array.isArray(value) ? value.filter(v => typeof v === 'string') : [];

/** The well-formed entries of a Configuration's `resources.deviceClassMappings`. */
export function deviceClassMappingsOf(
  configuration: unknown,
): KueueDeviceClassMapping[] {
  const mappings = getIn(configuration, 'resources', 'deviceClassMappings');
  return (Array.isArray(mappings) ? mappings : []).flatMap(m => {
    const name = getIn(m, 'name');
    return typeof name === 'string'
      ? [{ name, deviceClassNames: strings(getIn(m, 'deviceClassNames')) }]
      : [];
  });
}

/**
 * The gaps of `configuration` (as Kueue decodes it): Kueue leaves out of
 * quota every resource whose name starts with one of the prefixes
 * (`Resources.ExcludeResourcePrefixes`, v0.19.2 `configuration_types.go`),
 * and counts a DeviceClass only under a mapping that names it.
 */
export function kueueConfigurationGaps(
  configuration: unknown,
  cluster: ClusterProfile,
): KueueConfigurationGaps {
  const frameworks = strings(
    getIn(configuration, 'integrations', 'frameworks'),
  );
  const prefixes = strings(
    getIn(configuration, 'resources', 'excludeResourcePrefixes'),
  );
  const uncovered = UNQUOTED_RESOURCE_PREFIXES.filter(
    resource => !prefixes.some(prefix => resource.startsWith(prefix)),
  );
  return {
    deploymentIntegration: !frameworks.includes('deployment'),
    excludeResourcePrefixes:
      uncovered.length > 0 ? [...prefixes, ...uncovered] : [],
    deviceClassMappings: profileEnablesDra(cluster)
      ? missingDeviceClassMappings(deviceClassMappingsOf(configuration))
      : [],
  };
}
