import { builtinCatalog } from '../catalog/builtin';
import { plan } from '../planner/plan';
import { isGpuInputError } from '../errors';
import { gpuRequest } from '../planner/__testUtils__/fixtures';
import { SHARING_MODES, type SharingMode } from '../request/types';
import { clusterCapabilities } from './capabilities';
import type { ClusterGpuStack } from './gpuStack';
import { resolveClusterProfile } from './schema';

const mixed = resolveClusterProfile({ name: 'dev', region: 'us-east-1' });
const single = resolveClusterProfile({
  name: 'inference',
  migStrategy: 'single',
  region: 'eu-west-1',
});
const azure = resolveClusterProfile({
  name: 'aks',
  provider: 'azure-karpenter',
});

const unavailableModes = (caps: ReturnType<typeof clusterCapabilities>) =>
  caps.sharingModes.filter(m => m.unavailable).map(m => m.mode);

/** What the planner says about one choice: undefined when it plans, else its refusal's rule and message. */
function plannerRefusal(
  cluster: typeof mixed,
  model: string,
  sharing: SharingMode,
  gpuStack?: ClusterGpuStack,
) {
  try {
    plan(
      gpuRequest({ model, sharing, replicas: 2, vramGiB: 4 }),
      builtinCatalog,
      cluster,
      gpuStack
        ? {
            pools: [],
            devicePluginConfigs: {},
            migConfigs: {},
            workloads: [],
            gpuStack,
          }
        : undefined,
    );
    return undefined;
  } catch (error) {
    if (!isGpuInputError(error)) throw error;
    const [issue] = error.issues;
    return { rule: issue.rule, message: issue.message };
  }
}

describe('clusterCapabilities', () => {
  it('names the cluster with its provider and region', () => {
    expect(clusterCapabilities(mixed, builtinCatalog)).toMatchObject({
      name: 'dev',
      provider: 'aws-karpenter',
      region: 'us-east-1',
      label: 'dev — AWS (Karpenter), us-east-1',
    });
    expect(clusterCapabilities(azure, builtinCatalog).label).toBe(
      'aks — Azure (Karpenter)',
    );
  });

  it('offers only exclusive and dra on EKS Auto Mode (Kubernetes 1.36), the others disabled with the reason', () => {
    const auto = resolveClusterProfile({
      name: 'auto-ml',
      provider: 'eks-auto-mode',
      region: 'us-west-2',
      kubernetesVersion: '1.36.1',
    });
    const capabilities = clusterCapabilities(auto, builtinCatalog);
    expect(capabilities.label).toBe('auto-ml — AWS (EKS Auto Mode), us-west-2');
    expect(unavailableModes(capabilities)).toEqual([
      'time-slicing',
      'mps',
      'mig',
    ]);
    for (const mode of capabilities.sharingModes.filter(m => m.unavailable)) {
      expect(mode.unavailable).toEqual({
        path: 'spec.gpu.sharing',
        rule: 'eks-auto-mode-device-plugin',
        reason: expect.stringContaining(
          `cluster auto-ml cannot run ${mode.mode}: EKS Auto Mode runs its own NVIDIA device plugin`,
        ),
      });
    }
    // EC2's models, priced and launchable as on Karpenter's AWS provider.
    const l4 = capabilities.models.find(m => m.id === 'l4');
    expect(l4?.unavailable).toBeUndefined();
    expect(l4?.label).toContain('/GPU-hour');
  });

  it('offers MPS only where the device plugin does not run the mixed MIG strategy, saying why', () => {
    const dev = clusterCapabilities(mixed, builtinCatalog);
    expect(unavailableModes(dev)).toEqual(['mps']);
    expect(dev.sharingModes.find(m => m.mode === 'mps')!.unavailable).toEqual({
      path: 'spec.gpu.sharing',
      rule: 'mps-mig-strategy',
      reason: expect.stringContaining(
        'cluster dev cannot run MPS: its device plugin runs the MIG strategy "mixed"',
      ),
    });
    expect(
      unavailableModes(clusterCapabilities(single, builtinCatalog)),
    ).toEqual([]);
  });

  it('offers DRA only where Kubernetes serves resource.k8s.io/v1, and the planner refuses it in the same words', () => {
    const old = resolveClusterProfile({
      name: 'old',
      migStrategy: 'single',
      kubernetesVersion: '1.33.5',
    });
    const caps = clusterCapabilities(old, builtinCatalog);
    expect(unavailableModes(caps)).toEqual(['dra']);
    const dra = caps.sharingModes.find(m => m.mode === 'dra')!.unavailable!;
    expect(dra).toEqual({
      path: 'spec.gpu.sharing',
      rule: 'dra-kubernetes-version',
      reason: expect.stringContaining(
        'cluster old cannot run DRA: it runs Kubernetes 1.33.5 (profile kubernetesVersion), which does not serve resource.k8s.io/v1 (from 1.34)',
      ),
    });
    expect(plannerRefusal(old, 't4', 'dra')).toEqual({
      rule: dra.rule,
      message: dra.reason,
    });
    const current = resolveClusterProfile({
      name: 'current',
      migStrategy: 'single',
      kubernetesVersion: '1.34.0',
    });
    expect(
      unavailableModes(clusterCapabilities(current, builtinCatalog)),
    ).toEqual([]);
  });

  it('marks the models without a machine of the cluster provider, and MIG on models without MIG', () => {
    const aws = clusterCapabilities(mixed, builtinCatalog);
    const t4 = aws.models.find(m => m.id === 't4')!;
    expect(t4.unavailable).toBeUndefined();
    expect(t4.label).toBe(
      'NVIDIA Tesla T4 — 15 GiB, no MIG, from $0.53/GPU-hour',
    );
    expect(t4.modes.mig).toMatchObject({
      rule: 'mig-unsupported',
      reason: expect.stringContaining('t4 does not support MIG'),
    });
    expect(aws.models.find(m => m.id === 'a100-40gb')!.modes).toEqual({});

    // Azure's sizes: T4s at Azure's price; no Azure size carries an L4.
    const aks = clusterCapabilities(azure, builtinCatalog);
    const aksT4 = aks.models.find(m => m.id === 't4')!;
    expect(aksT4.unavailable).toBeUndefined();
    expect(aksT4.label).toBe(
      'NVIDIA Tesla T4 — 15 GiB, no MIG, from $0.53/GPU-hour',
    );
    // An H100 NVL exists on Azure only: priced on Azure, not offered on AWS.
    expect(aks.models.find(m => m.id === 'h100-nvl')!.label).toContain(
      'from $6.98/GPU-hour',
    );
    expect(aws.models.find(m => m.id === 'h100-nvl')!.label).toContain(
      'price unknown',
    );
    expect(aks.models.find(m => m.id === 'l4')!.unavailable!.reason).toBe(
      'cluster aks cannot launch l4 GPUs: the catalog has no azure machine with them',
    );
  });

  it('is the rule the planner refuses with: every choice offered plans, every choice disabled is refused for the same reason', () => {
    for (const cluster of [mixed, single, azure]) {
      const caps = clusterCapabilities(cluster, builtinCatalog);
      for (const model of caps.models) {
        for (const mode of SHARING_MODES) {
          const why =
            model.unavailable ??
            caps.sharingModes.find(m => m.mode === mode)!.unavailable ??
            model.modes[mode];
          const refusal = plannerRefusal(cluster, model.id, mode);
          // Models whose 4 GiB request is refused for capacity reasons (none
          // here: every built-in GPU holds 4 GiB) would need their own case.
          expect({
            cluster: cluster.name,
            model: model.id,
            mode,
            refusal,
          }).toEqual({
            cluster: cluster.name,
            model: model.id,
            mode,
            refusal: why ? { rule: why.rule, message: why.reason } : undefined,
          });
        }
      }
    }
  });

  describe('on what the repository runs on the GPU nodes', () => {
    const migManagerOff: ClusterGpuStack = {
      migManagerOff: {
        file: 'clusters/dev/gpu-operator/values.yaml',
        setting:
          '`migManager.enabled: false` in `clusters/dev/gpu-operator/values.yaml`',
      },
    };
    const bottlerocket: ClusterGpuStack = {
      devicePlugin: {
        kind: 'bottlerocket',
        readsNamedConfigs: false,
        file: 'clusters/dev/karpenter/gpu-nodeclass.yaml',
        setting: 'EC2NodeClass `gpu` with `amiFamily: Bottlerocket`',
      },
    };
    const standalone = (readsNamedConfigs: boolean): ClusterGpuStack => ({
      devicePlugin: {
        kind: 'standalone',
        readsNamedConfigs,
        file: 'clusters/dev/nvidia-device-plugin/release.yaml',
        setting:
          'the `nvidia-device-plugin` Helm chart (Flux HelmRelease `nvidia-device-plugin`)',
      },
    });
    const unavailable = (stack: ClusterGpuStack) =>
      clusterCapabilities(mixed, builtinCatalog, stack).sharingModes.flatMap(
        m => (m.unavailable ? [[m.mode, m.unavailable.rule]] : []),
      );

    it('says MIG is unavailable where the GPU Operator runs no MIG manager, naming the file and the value', () => {
      const caps = clusterCapabilities(mixed, builtinCatalog, migManagerOff);
      const mig = caps.sharingModes.find(m => m.mode === 'mig')!;
      expect(mig.unavailable?.rule).toBe('mig-manager-disabled');
      expect(mig.unavailable?.reason).toContain(
        'its GPU Operator runs no MIG manager (`migManager.enabled: false` in `clusters/dev/gpu-operator/values.yaml`)',
      );
      expect(unavailable(migManagerOff)).toEqual([
        ['mps', 'mps-mig-strategy'],
        ['mig', 'mig-manager-disabled'],
      ]);
    });

    it('says MIG is unavailable where the MIG manager reads another ConfigMap, naming the setting and what to set', () => {
      const elsewhere: ClusterGpuStack = {
        migManagerConfigElsewhere: {
          file: 'clusters/dev/gpu-operator/release.yaml',
          configMap: 'team-layouts',
          setting:
            '`migManager.config.name: team-layouts` in `spec.values` of HelmRelease `gpu-operator/gpu-operator`',
          advice:
            '`migManager.config.name: custom-mig-parted-config` in `spec.values` of HelmRelease `gpu-operator/gpu-operator`',
        },
      };
      const mig = clusterCapabilities(
        mixed,
        builtinCatalog,
        elsewhere,
      ).sharingModes.find(m => m.mode === 'mig')!;
      expect(mig.unavailable?.rule).toBe('mig-manager-reads-other-config');
      expect(mig.unavailable?.reason).toContain(
        "its GPU Operator's MIG manager reads ConfigMap team-layouts (`migManager.config.name: team-layouts` in `spec.values` of HelmRelease `gpu-operator/gpu-operator`), not ConfigMap",
      );
      expect(mig.unavailable?.reason).toContain(
        'set `migManager.config.name: custom-mig-parted-config` in `spec.values`',
      );
    });

    it("rules out every per-pool config on Bottlerocket's device plugin, and named configs on a standalone plugin that does not read the profile's ConfigMap", () => {
      expect(unavailable(bottlerocket)).toEqual([
        ['time-slicing', 'device-plugin-bottlerocket'],
        ['mps', 'device-plugin-bottlerocket'],
        ['mig', 'device-plugin-bottlerocket'],
      ]);
      expect(unavailable(standalone(false))).toEqual([
        ['time-slicing', 'device-plugin-standalone'],
        ['mps', 'device-plugin-standalone'],
      ]);
      expect(unavailable(standalone(true))).toEqual([
        ['mps', 'mps-mig-strategy'],
      ]);
    });

    it('rules out MIG where the standalone plugin runs another MIG strategy than the profile’s: it would advertise MIG-enabled GPUs whole', () => {
      const ownStrategy = (migStrategy: string): ClusterGpuStack => ({
        devicePlugin: { ...standalone(false).devicePlugin!, migStrategy },
      });
      expect(unavailable(ownStrategy('none'))).toEqual([
        ['time-slicing', 'device-plugin-standalone'],
        ['mps', 'device-plugin-standalone'],
        ['mig', 'device-plugin-mig-strategy'],
      ]);
      const mig = clusterCapabilities(
        mixed,
        builtinCatalog,
        ownStrategy('none'),
      ).sharingModes.find(m => m.mode === 'mig')!;
      expect(mig.unavailable?.reason).toContain(
        `whose MIG strategy is "none", not the cluster profile's "${mixed.migStrategy}": it advertises each MIG-enabled GPU whole as nvidia.com/gpu and none of its MIG instances`,
      );
      expect(mig.unavailable?.reason).toContain(
        `set its Helm value migStrategy to ${mixed.migStrategy}`,
      );
      expect(unavailable(ownStrategy(mixed.migStrategy))).toEqual([
        ['time-slicing', 'device-plugin-standalone'],
        ['mps', 'device-plugin-standalone'],
      ]);
    });

    const sharing: ClusterGpuStack = {
      devicePlugin: {
        ...standalone(false).devicePlugin!,
        sharesByDefault:
          'time-slicing, 10 per GPU, as `nvidia.com/gpu`: its default config `default`',
      },
    };

    it('rules out whole GPUs where the standalone plugin’s own default config shares every GPU, saying how and where', () => {
      expect(unavailable(sharing)).toEqual([
        ['exclusive', 'device-plugin-shares-by-default'],
        ['time-slicing', 'device-plugin-standalone'],
        ['mps', 'device-plugin-standalone'],
      ]);
      const exclusive = clusterCapabilities(
        mixed,
        builtinCatalog,
        sharing,
      ).sharingModes.find(m => m.mode === 'exclusive')!;
      expect(exclusive.unavailable?.reason).toContain(
        'which shares every GPU (time-slicing, 10 per GPU, as `nvidia.com/gpu`: its default config `default`), so a pod asking for one GPU gets a share of one',
      );
    });

    it('rules out whole GPUs where Bottlerocket’s device plugin shares every GPU of the pools’ node class, saying where', () => {
      const sharingRocket: ClusterGpuStack = {
        devicePlugin: {
          ...bottlerocket.devicePlugin!,
          sharesByDefault:
            'time-slicing, 4 per GPU, as `nvidia.com/gpu`: EC2NodeClass `gpu` spec.userData',
        },
      };
      expect(unavailable(sharingRocket)).toEqual([
        ['exclusive', 'device-plugin-shares-by-default'],
        ['time-slicing', 'device-plugin-bottlerocket'],
        ['mps', 'device-plugin-bottlerocket'],
        ['mig', 'device-plugin-bottlerocket'],
      ]);
      const exclusive = clusterCapabilities(
        mixed,
        builtinCatalog,
        sharingRocket,
      ).sharingModes.find(m => m.mode === 'exclusive')!;
      expect(exclusive.unavailable?.reason).toContain(
        'which shares every GPU (time-slicing, 4 per GPU, as `nvidia.com/gpu`: EC2NodeClass `gpu` spec.userData), so a pod asking for one GPU gets a share of one',
      );
    });

    const operatorSharing: ClusterGpuStack = {
      operatorSharesByDefault: {
        file: 'clusters/dev/gpu-operator/gpu-operator.yaml',
        setting:
          'devicePlugin.config.default `any` of ConfigMap `time-slicing-config` in Flux HelmRelease `flux-system/gpu-operator`',
        sharing: 'time-slicing, 4 per GPU, as `nvidia.com/gpu`',
      },
    };

    it('rules out whole GPUs where the GPU Operator’s default device-plugin config shares every GPU, saying where and what to change', () => {
      expect(unavailable(operatorSharing)).toEqual([
        ['exclusive', 'device-plugin-shares-by-default'],
        ['mps', 'mps-mig-strategy'],
      ]);
      const exclusive = clusterCapabilities(
        mixed,
        builtinCatalog,
        operatorSharing,
      ).sharingModes.find(m => m.mode === 'exclusive')!;
      expect(exclusive.unavailable?.reason).toContain(
        "its GPU Operator's default device-plugin config shares every GPU (time-slicing, 4 per GPU, as `nvidia.com/gpu`; devicePlugin.config.default `any` of ConfigMap `time-slicing-config` in Flux HelmRelease `flux-system/gpu-operator`)",
      );
      expect(exclusive.unavailable?.reason).toContain(
        'in `clusters/dev/gpu-operator/gpu-operator.yaml` point devicePlugin.config.default at a config without sharing, or label exclusive pools',
      );
    });

    it('is the rule the planner refuses with', () => {
      for (const stack of [
        migManagerOff,
        bottlerocket,
        standalone(false),
        standalone(true),
        sharing,
        operatorSharing,
      ]) {
        const caps = clusterCapabilities(mixed, builtinCatalog, stack);
        for (const mode of SHARING_MODES) {
          const why = caps.sharingModes.find(m => m.mode === mode)!.unavailable;
          const refusal = plannerRefusal(mixed, 'a100-40gb', mode, stack);
          expect({ mode, refusal }).toEqual({
            mode,
            refusal: why ? { rule: why.rule, message: why.reason } : undefined,
          });
        }
      }
    });
  });
});
