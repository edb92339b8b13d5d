/**
 * NVIDIA's DRA driver among the GPU servers the repository deploys: read
 * from its Helm release (or kubelet plugin DaemonSet) beside the GPU
 * Operator, and judged per pool by gpu-common `devicePluginService`: a DRA
 * pool served by the driver only, a device-plugin pool not by both.
 */
import {
  devicePluginService,
  nodeShapeOf,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { MemoryRepoTree } from '../tree';
import { readGpuStack } from './readGpuStack';

const cluster = resolveClusterProfile({ name: 'prod' });

const OPERATOR = `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: gpu-operator, namespace: gpu-operator}
spec:
  chart:
    spec: {chart: gpu-operator, sourceRef: {kind: HelmRepository, name: nvidia}}
  values:
    migManager:
      config: {name: custom-mig-parted-config}
`;

const draDriver = (values: string) => `apiVersion: helm.toolkit.fluxcd.io/v2
kind: HelmRelease
metadata: {name: dra-driver, namespace: nvidia-dra-driver-gpu}
spec:
  chart:
    spec: {chart: dra-driver-nvidia-gpu, version: 0.4.1, sourceRef: {kind: HelmRepository, name: nvidia}}
  values:
${values}`;

const KUBELET_PLUGIN_DAEMONSET = `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: dra-driver-kubelet-plugin, namespace: nvidia-dra-driver-gpu}
spec:
  selector: {matchLabels: {app: dra-kubelet-plugin}}
  template:
    metadata: {labels: {app: dra-kubelet-plugin}}
    spec:
      nodeSelector: {nvidia.com/gpu.present: "true"}
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers:
        - name: gpus
          image: registry.k8s.io/dra-driver-nvidia/dra-driver-nvidia-gpu:v0.4.1
`;

const pool = (name: string, labels: Record<string, string>) =>
  nodeShapeOf({
    kind: 'NodePool',
    metadata: { name },
    spec: {
      template: {
        metadata: { labels },
        spec: {
          nodeClassRef: {
            group: 'karpenter.k8s.aws',
            kind: 'EC2NodeClass',
            name: 'gpu',
          },
          taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
        },
      },
    },
  });
const draPool = pool('gpu-l4-dra', {
  'nvidia.com/gpu.deploy.device-plugin': 'false',
});
const exclusivePool = pool('gpu-l4', {});

async function problems(files: Record<string, string>) {
  const tree = new MemoryRepoTree(files);
  const all = Object.entries(files).map(([path, text]) => ({ path, text }));
  const stack = await readGpuStack(tree, cluster, all);
  return {
    stack,
    dra: devicePluginService(draPool, stack, 'single').problems,
    exclusive: devicePluginService(exclusivePool, stack, 'single').problems,
  };
}

describe('the DRA driver as a GPU server', () => {
  it('serves a DRA pool alone beside the GPU Operator, whose device plugin the pool label keeps off', async () => {
    const { stack, dra } = await problems({
      'infra/operator.yaml': OPERATOR,
      'infra/dra.yaml': draDriver('    gpuResourcesEnabledOverride: true\n'),
    });
    expect(stack.draDrivers).toEqual([
      expect.objectContaining({ file: 'infra/dra.yaml', servesGpus: true }),
    ]);
    expect(dra).toEqual([]);
  });

  it('reports a device-plugin pool the DRA driver also publishes GPUs of', async () => {
    const { exclusive } = await problems({
      'infra/operator.yaml': OPERATOR,
      'infra/dra.yaml': draDriver('    gpuResourcesEnabledOverride: true\n'),
    });
    expect(exclusive).toEqual([
      expect.stringContaining(
        "the nodes of NodePool gpu-l4 run both a device plugin (the GPU Operator's device plugin (Flux HelmRelease",
      ),
    ]);
    expect(exclusive[0]).toContain('gpuResourcesEnabledOverride');
  });

  it('refuses a DRA pool no DRA driver publishes GPUs on, naming what to install', async () => {
    const none = await problems({ 'infra/operator.yaml': OPERATOR });
    expect(none.dra).toEqual([
      expect.stringContaining(
        'no DRA driver publishes the GPUs of the nodes of NodePool gpu-l4-dra (the repository deploys none)',
      ),
    ]);
    expect(none.dra[0]).toContain(
      "install NVIDIA's DRA driver (Helm chart dra-driver-nvidia-gpu",
    );
    const noOverride = await problems({
      'infra/operator.yaml': OPERATOR,
      'infra/dra.yaml': draDriver('    logVerbosity: "4"\n'),
    });
    expect(noOverride.dra[0]).toContain(
      'it publishes no GPUs (resources.gpus.enabled needs gpuResourcesEnabledOverride: true)',
    );
  });

  it('reads the kubelet plugin DaemonSet, and a device plugin placed on every GPU node is one too many on a DRA pool', async () => {
    const { stack, dra } = await problems({
      'infra/dra.yaml': KUBELET_PLUGIN_DAEMONSET,
      'infra/dp.yaml': `apiVersion: apps/v1
kind: DaemonSet
metadata: {name: nvidia-device-plugin-daemonset, namespace: kube-system}
spec:
  selector: {matchLabels: {name: dp}}
  template:
    metadata: {labels: {name: dp}}
    spec:
      tolerations: [{key: nvidia.com/gpu, operator: Exists, effect: NoSchedule}]
      containers:
        - name: nvidia-device-plugin-ctr
          image: nvcr.io/nvidia/k8s-device-plugin:v0.20.0
`,
    });
    expect(stack.draDrivers).toEqual([
      expect.objectContaining({ servesGpus: true }),
    ]);
    expect(dra).toEqual([
      expect.stringContaining(
        'the nodes of NodePool gpu-l4-dra are a DRA pool, but a device plugin runs there too (DaemonSet `nvidia-device-plugin-daemonset`',
      ),
    ]);
  });
});
