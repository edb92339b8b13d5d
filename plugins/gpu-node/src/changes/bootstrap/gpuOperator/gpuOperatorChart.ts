/**
 * The NVIDIA GPU Operator's Helm chart: where it is published, and the
 * chart's own defaults of the values the product depends on, which apply
 * where a release sets none. From gpu-operator v26.7.0
 * `deployments/gpu-operator/values.yaml` (the version the bootstrap pins;
 * a release of another version may default otherwise) and, for its NFD
 * subchart (`node-feature-discovery` 0.19.0, `Chart.yaml`),
 * kubernetes-sigs/node-feature-discovery v0.19.0
 * `deployment/helm/node-feature-discovery/values.yaml` as the operator's
 * values override it.
 */
import type { PodToleration } from '@gpu-gitops/plugin-gpu-common';

/** The chart's name, and the name every detected GPU Operator release carries. */
export const GPU_OPERATOR_CHART = 'gpu-operator';

/** The Helm repository NVIDIA publishes the chart in. */
export const GPU_OPERATOR_REPO = 'https://helm.ngc.nvidia.com/nvidia';

/** The toleration of the GPU taint the chart gives operands and NFD's worker by default. */
const NVIDIA_GPU_TOLERATION: PodToleration = {
  key: 'nvidia.com/gpu',
  operator: 'Exists',
  effect: 'NoSchedule',
};

/** Each value the product reads from a release, with the chart's default (`undefined`: none). */
export const GPU_OPERATOR_CHART_DEFAULTS: Record<string, unknown> = {
  // "ConfigMap name (either existing or to create a new one with create=true above)"
  'devicePlugin.enabled': true,
  'migManager.enabled': true,
  'devicePlugin.config.name': '',
  'devicePlugin.config.default': '',
  'devicePlugin.config.create': false,
  'migManager.config.name': '',
  'migManager.config.create': false,
  'mig.strategy': 'single',
  'daemonsets.tolerations': [NVIDIA_GPU_TOLERATION],
  'nfd.enabled': true,
  'gfd.enabled': true,
  'node-feature-discovery.worker.tolerations': [
    {
      key: 'node-role.kubernetes.io/control-plane',
      operator: 'Equal',
      value: '',
      effect: 'NoSchedule',
    },
    NVIDIA_GPU_TOLERATION,
  ],
  // NFD's chart: `master.enableTaints: false`; its config file's
  // `enableTaints` is unset (commented out) in both charts.
  'node-feature-discovery.master.enableTaints': false,
  'node-feature-discovery.master.config.enableTaints': undefined,
};
