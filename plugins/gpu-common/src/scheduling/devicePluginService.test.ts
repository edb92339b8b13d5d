/**
 * Which device plugin serves a pool's nodes: none, one or two, whether a MIG
 * pool has a MIG manager, and what a plugin of its own config advertises.
 * Placements are the upstream ones: NVIDIA's static DaemonSet
 * (k8s-device-plugin v0.20.0 `deployments/static/nvidia-device-plugin.yml`:
 * no node selector, tolerates `nvidia.com/gpu`).
 */
import type {
  ClusterGpuStack,
  DeployedDevicePlugin,
} from '../cluster/gpuStack';
import { devicePluginService } from './devicePluginService';
import { nodeShapeOf } from './nodeShapeOf';
import { podSchedulingOf } from './podScheduling';

const nodePool = (name: string, labels: Record<string, string> = {}) =>
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
          requirements: [
            {
              key: 'karpenter.k8s.aws/instance-family',
              operator: 'In',
              values: ['g4dn'],
            },
          ],
          taints: [{ key: 'nvidia.com/gpu', effect: 'NoSchedule' }],
        },
      },
    },
  });

const OPERATOR: DeployedDevicePlugin = {
  kind: 'gpu-operator',
  readsNamedConfigs: true,
  file: 'infra/gpu-operator.yaml',
  setting: 'the GPU Operator of HelmRelease gpu-operator/gpu-operator',
};

const staticDaemonSet = (nodeSelector?: Record<string, string>) => ({
  kind: 'standalone' as const,
  readsNamedConfigs: false,
  file: 'infra/dp.yaml',
  setting: 'DaemonSet nvidia-device-plugin-daemonset',
  placement: podSchedulingOf({
    ...(nodeSelector ? { nodeSelector } : {}),
    tolerations: [
      { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
    ],
  }),
});

const stack = (
  devicePlugins: DeployedDevicePlugin[],
  more: Partial<ClusterGpuStack> = {},
): ClusterGpuStack => ({ devicePlugins, ...more });

describe('devicePluginService', () => {
  const pool = nodePool('gpu-t4');

  it('judges nothing when the repository declares no device plugin', () => {
    expect(devicePluginService(pool, {}, 'single', 4)).toEqual({
      servedBy: [],
      problems: [],
    });
  });

  it('one plugin: the GPU Operator on every GPU node, the static DaemonSet where it tolerates the taint', () => {
    expect(devicePluginService(pool, stack([OPERATOR]), 'single', 4)).toEqual({
      servedBy: [OPERATOR],
      problems: [],
    });
    const alone = devicePluginService(
      pool,
      stack([staticDaemonSet()]),
      'single',
      4,
    );
    expect(alone.problems).toEqual([]);
    // It reads no named config: whole GPUs, 4 per g4dn.12xlarge node.
    expect(alone.resources).toEqual([{ name: 'nvidia.com/gpu', perNode: 4 }]);
  });

  it('a DaemonSet kept off the pool by its node selector, and the operator’s turned off: no device plugin', () => {
    const [problem] = devicePluginService(
      pool,
      stack([staticDaemonSet({ 'node-type': 'gpu' })], {
        operatorDevicePluginOff: {
          file: 'infra/gpu-operator.yaml',
          setting: '`devicePlugin.enabled: false` in spec.values',
        },
      }),
      'single',
    ).problems;
    expect(problem).toBe(
      "no device plugin runs on the nodes of NodePool gpu-t4 (the GPU Operator's is off (`devicePlugin.enabled: false` in spec.values); DaemonSet nvidia-device-plugin-daemonset: nodeSelector node-type=gpu: nodes of NodePool gpu-t4 never carry label node-type), so nothing advertises their GPUs and no GPU pod can land there",
    );
  });

  it('the GPU Operator’s beside a DaemonSet that reaches the pool: two', () => {
    const service = devicePluginService(
      pool,
      stack([OPERATOR, staticDaemonSet({ 'nvidia.com/gpu.present': 'true' })]),
      'single',
    );
    expect(service.servedBy).toHaveLength(2);
    expect(service.problems[0]).toMatch(
      /^2 device plugins run on the nodes of NodePool gpu-t4 \(the GPU Operator of HelmRelease gpu-operator\/gpu-operator; DaemonSet nvidia-device-plugin-daemonset\)/,
    );
  });

  it('a MIG pool whose MIG manager reads another ConfigMap than the product writes its layout into', () => {
    const mig = nodePool('gpu-a100-mig', {
      'nvidia.com/mig.config': 'all-1g.5gb',
    });
    const elsewhere = (configMap: string) =>
      devicePluginService(
        mig,
        stack([OPERATOR], {
          migManagerConfigElsewhere: {
            file: 'infra/gpu-operator.yaml',
            configMap,
            setting: `\`migManager.config.name: ${configMap}\` in spec.values`,
            advice:
              '`migManager.config.name: custom-mig-parted-config` in spec.values',
          },
        }),
        'single',
      ).problems;
    expect(elsewhere('team-layouts')).toEqual([
      "the nodes of NodePool gpu-a100-mig select the MIG layout all-1g.5gb (label nvidia.com/mig.config), but the GPU Operator's MIG manager reads ConfigMap team-layouts (`migManager.config.name: team-layouts` in spec.values), not the product's mig-parted ConfigMap: it never finds that layout; set `migManager.config.name: custom-mig-parted-config` in spec.values",
    ]);
    expect(elsewhere('')[0]).toContain(
      'reads its own config, generated from the GPUs it finds',
    );
  });

  it('a MIG pool where the MIG manager is off; nothing said of an operator the repository does not declare', () => {
    const mig = nodePool('gpu-a100-mig', {
      'nvidia.com/mig.config': 'all-1g.5gb',
    });
    const off = devicePluginService(
      mig,
      stack([OPERATOR], {
        migManagerOff: {
          file: 'infra/gpu-operator.yaml',
          setting: '`migManager.enabled: false` in spec.values',
        },
      }),
      'single',
    );
    expect(off.problems).toEqual([
      'the nodes of NodePool gpu-a100-mig select the MIG layout all-1g.5gb (label nvidia.com/mig.config), but its GPU Operator runs no MIG manager (`migManager.enabled: false` in spec.values): nothing partitions their GPUs',
    ]);
    // No GPU Operator release in the repository: one installed elsewhere is assumed.
    expect(
      devicePluginService(
        nodePool('gpu-t4', { 'node-type': 'cpu' }),
        stack([staticDaemonSet({ 'node-type': 'gpu' })]),
        'single',
      ).problems,
    ).toEqual([]);
    expect(
      devicePluginService(mig, stack([OPERATOR]), 'single').problems,
    ).toEqual([]);
  });

  it('Bottlerocket’s serves the nodes of its node class, with the resource its user data names', () => {
    const bottlerocket: DeployedDevicePlugin = {
      kind: 'bottlerocket',
      readsNamedConfigs: false,
      file: 'infra/nodeclass.yaml',
      setting: 'EC2NodeClass gpu with amiFamily: Bottlerocket',
      nodeClass: 'gpu',
      config: {
        version: 'v1',
        sharing: {
          timeSlicing: {
            renameByDefault: true,
            resources: [{ name: 'nvidia.com/gpu', replicas: 4 }],
          },
        },
      },
    };
    expect(
      devicePluginService(pool, stack([bottlerocket]), 'single', 1).resources,
    ).toEqual([{ name: 'nvidia.com/gpu.shared', perNode: 4 }]);
    const other = { ...bottlerocket, nodeClass: 'cpu' };
    expect(
      devicePluginService(
        pool,
        stack([other], {
          operatorDevicePluginOff: {
            file: 'infra/gpu-operator.yaml',
            setting: '`devicePlugin.enabled: false` in spec.values',
          },
        }),
        'single',
      ).problems[0],
    ).toContain('it runs on nodes of EC2NodeClass cpu only');
  });
});
