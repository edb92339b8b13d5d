/**
 * The GPU Operator release the bootstrap writes when the repository
 * declares none: a kustomization whose `helmCharts` entry installs the
 * chart at the pinned version into the namespace of the profile's
 * ConfigMaps, and its values (`gpuOperatorValues.ts`), both rewritten whole
 * on every run (the one rule of `bootstrapFile.ts`).
 */
import { posix } from 'node:path';
import type {
  ClusterGpuStack,
  ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { bootstrapYaml, type BootstrapFileWrite } from '../bootstrapFile';
import type { BootstrapPaths } from '../bootstrapPaths';
import { buildGpuOperatorValues, operatorOperands } from '../gpuOperatorValues';
import {
  devicePluginDefaultKey,
  migManagerDefaultEntry,
  type OperatorConfigMaps,
} from '../operatorConfigMaps';
import { GPU_OPERATOR_CHART, GPU_OPERATOR_REPO } from './gpuOperatorChart';

export function managedGpuOperatorRelease(
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  configMaps: OperatorConfigMaps,
  chartVersion: string,
  stack: ClusterGpuStack,
): BootstrapFileWrite[] {
  const folder = posix.dirname(paths.operatorKustomization);
  const remedy = `Move it out of ${folder}/. If this repository installs the GPU Operator, declare it so the bootstrap finds it (a kustomize helmCharts entry, a Flux HelmRelease or an Argo CD Application of the chart "${GPU_OPERATOR_CHART}"), then run the bootstrap again: it then writes no release of its own, never edits yours, and says what to set in it.`;
  return [
    {
      path: paths.operatorValues,
      content: bootstrapYaml(
        buildGpuOperatorValues(
          cluster,
          {
            devicePlugin: devicePluginDefaultKey(configMaps.devicePlugin),
            migManager: migManagerDefaultEntry(configMaps.migParted),
          },
          operatorOperands(stack),
        ),
        'Helm values of the NVIDIA GPU Operator (ClusterPolicy). Operands (device plugin, GFD, DCGM exporter, MIG manager) run only on nodes the operator labels nvidia.com/gpu.present=true (from NFD feature.node.kubernetes.io/pci-10de.present); ClusterPolicy has no per-daemonset nodeSelector, so they get the GPU taint tolerations here and the operator itself is kept off GPU nodes.',
      ),
      what: "the GPU Operator's Helm values",
      remedy,
    },
    {
      path: paths.operatorKustomization,
      content: bootstrapYaml({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        helmCharts: [
          {
            name: GPU_OPERATOR_CHART,
            repo: GPU_OPERATOR_REPO,
            version: chartVersion,
            releaseName: GPU_OPERATOR_CHART,
            namespace: cluster.devicePluginConfigMap.namespace,
            includeCRDs: true,
            valuesFile: 'values.yaml',
          },
        ],
      }),
      what: "the GPU Operator's Helm release (a kustomize helmCharts entry)",
      remedy,
    },
  ];
}
