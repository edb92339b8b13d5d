/**
 * Every device plugin the repository deploys for a cluster, with the nodes
 * it serves (gpu-common `scheduling/devicePluginService.ts` judges each
 * pool by them):
 *
 * - the GPU Operator's, unless a release sets `devicePlugin.enabled: false`
 *   (the chart's default is true: gpu-operator v26.7.0
 *   `deployments/gpu-operator/values.yaml`); it runs on every GPU node the
 *   operator labels, and reads the named configs;
 * - NVIDIA's standalone chart, placed by its `nodeSelector`, `affinity` and
 *   `tolerations` values, else the chart's defaults (k8s-device-plugin
 *   v0.20.0 `deployments/helm/nvidia-device-plugin/values.yaml`: an NFD or
 *   `nvidia.com/gpu.present` label, the `nvidia.com/gpu` taint tolerated);
 * - its static DaemonSet, placed by its pod template, or as a team's chart
 *   folder renders it (`chartFolderDevicePlugins.ts`);
 * - Bottlerocket's, on the nodes of every Bottlerocket EC2NodeClass, with
 *   the sharing of its user data as the one config it applies;
 * - beside them, NVIDIA's DRA driver (`draDrivers.ts`), which serves GPUs
 *   through ResourceClaims rather than `nvidia.com/gpu`.
 */
import {
  DEVICE_PLUGIN_DEPLOY_LABEL,
  podSchedulingOf,
  type ClusterGpuStack,
  type ClusterProfile,
  type DeployedDevicePlugin,
  type OtherDevicePlugin,
} from '@gpu-gitops/plugin-gpu-common';
import { GPU_OPERATOR_CHART } from '../../changes/bootstrap/gpuOperator/gpuOperatorChart';
import { findHelmReleases } from '../../changes/bootstrap/helmReleases/findHelmReleases';
import type { HelmRelease } from '../../changes/bootstrap/helmReleases/helmRelease';
import { helmTruth } from '../../changes/bootstrap/helmReleases/helmTruth';
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import { readValue } from '../../changes/bootstrap/helmReleases/valuesLayer';
import { bottlerocketSharing } from '../../import/sharing/bottlerocketSharing';
import type { NodeSharing } from '../../import/sharing/nodeSharing';
import type { RepoTree } from '../tree';
import { getIn } from '../yamlObjects';
import {
  bottlerocketSetting,
  DEVICE_PLUGIN_CHART,
  DEVICE_PLUGIN_IMAGE,
  objectsOf,
} from './devicePluginObjects';
import {
  describeSharing,
  devicePluginChartDefaultSharing,
  devicePluginChartMigStrategy,
} from './devicePluginChartDefault';
import { chartFolderDevicePlugins } from './chartFolderDevicePlugins';
import { draDrivers } from './draDrivers';

type Deployed = Pick<
  ClusterGpuStack,
  'devicePlugins' | 'operatorDevicePluginOff' | 'draDrivers' | 'devicePlugin'
>;

/** The standalone chart's placement defaults (k8s-device-plugin v0.20.0 values.yaml). */
const CHART_PLACEMENT: Record<string, unknown> = {
  nodeSelector: {},
  affinity: {
    nodeAffinity: {
      requiredDuringSchedulingIgnoredDuringExecution: {
        nodeSelectorTerms: [
          ['feature.node.kubernetes.io/pci-10de.present', 'true'],
          ['feature.node.kubernetes.io/cpu-model.vendor_id', 'NVIDIA'],
          ['nvidia.com/gpu.present', 'true'],
        ].map(([key, value]) => ({
          matchExpressions: [{ key, operator: 'In', values: [value] }],
        })),
      },
    },
  },
  tolerations: [
    { key: 'CriticalAddonsOnly', operator: 'Exists' },
    { key: 'nvidia.com/gpu', operator: 'Exists', effect: 'NoSchedule' },
  ],
};

/**
 * The GPU Operator's device plugin runs on the GPU nodes labelled
 * `nvidia.com/gpu.deploy.device-plugin=true`, which the operator sets on
 * each GPU node unless the node has it already (gpu-operator v26.7.0
 * `assets/state-device-plugin/0500_daemonset.yaml` nodeSelector;
 * `controllers/state_manager.go` labels GPU nodes): a pool labelled
 * `false` (a DRA pool) keeps it off. Its tolerations are the bootstrap's
 * concern (`daemonsets.tolerations`), so they are not judged here.
 */
const OPERATOR_PLUGIN_PLACEMENT = podSchedulingOf({
  nodeSelector: { [DEVICE_PLUGIN_DEPLOY_LABEL]: 'true' },
  tolerations: [{ operator: 'Exists' }],
});

async function operatorPlugins(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<Deployed> {
  const out: Required<Pick<Deployed, 'devicePlugins'>> & Deployed = {
    devicePlugins: [],
  };
  for (const release of await findHelmReleases(
    tree,
    files,
    GPU_OPERATOR_CHART,
  )) {
    const enabled = readValue(release.layers, ['devicePlugin', 'enabled']);
    if (enabled.state === 'set' && enabled.value === false) {
      out.operatorDevicePluginOff = {
        file: release.file,
        setting: `\`devicePlugin.enabled: false\` in ${enabled.setIn.where}`,
      };
      continue;
    }
    out.devicePlugins.push({
      kind: 'gpu-operator',
      readsNamedConfigs: true,
      file: release.file,
      setting: `the GPU Operator's device plugin (${release.declaredBy} in \`${release.file}\`)`,
      placement: OPERATOR_PLUGIN_PLACEMENT,
    });
  }
  return out;
}

/** A chart value as its release sets it, else the chart's default. */
function chartValue(release: HelmRelease, key: string): unknown {
  const reading = readValue(release.layers, [key]);
  return reading.state === 'set' ? reading.value : CHART_PLACEMENT[key];
}

/**
 * The chart renders its plugin's DaemonSet only `if .Values.devicePlugin.enabled`
 * (k8s-device-plugin v0.18.0 `templates/daemonset-device-plugin.yml`; Go's
 * truth: not false, empty or absent; the chart's default is true): a release
 * that turns it off deploys GPU feature discovery alone (README, "Deploying
 * gpu-feature-discovery in standalone mode"). A hidden value counts as on.
 */
function rendersDevicePlugin(release: HelmRelease): boolean {
  const enabled = readValue(release.layers, ['devicePlugin', 'enabled']);
  return enabled.state !== 'set' || helmTruth(enabled.value);
}

async function chartPlugins(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): Promise<DeployedDevicePlugin[]> {
  const ref = cluster.devicePluginConfigMap;
  const releases = await findHelmReleases(tree, files, DEVICE_PLUGIN_CHART);
  return releases.filter(rendersDevicePlugin).map(release => {
    const name = readValue(release.layers, ['config', 'name']);
    const shared = devicePluginChartDefaultSharing(release);
    const readsNamedConfigs =
      name.state === 'set' &&
      name.value === ref.name &&
      (release.namespace === undefined || release.namespace === ref.namespace);
    const migStrategy = devicePluginChartMigStrategy(
      release,
      readsNamedConfigs,
    );
    return {
      kind: 'standalone',
      ...(shared
        ? { sharesByDefault: `${describeSharing(shared)}: ${shared.source}` }
        : {}),
      ...(migStrategy ? { migStrategy } : {}),
      readsNamedConfigs,
      file: release.file,
      setting: `the \`${DEVICE_PLUGIN_CHART}\` Helm chart installed by ${release.declaredBy} in \`${release.file}\``,
      placement: podSchedulingOf({
        nodeSelector: chartValue(release, 'nodeSelector'),
        affinity: chartValue(release, 'affinity'),
        tolerations: chartValue(release, 'tolerations'),
      }),
    };
  });
}

/**
 * The MIG strategy of a static DaemonSet's plugin container: its
 * `MIG_STRATEGY` or `--mig-strategy=`, else `none`, the plugin's default
 * (k8s-device-plugin v0.18.0 `cmd/nvidia-device-plugin/main.go`); undefined
 * when it is given a config file, whose flags cannot be read here.
 */
function daemonSetMigStrategy(container: unknown): string | undefined {
  const env = getIn(container, 'env');
  const vars = Array.isArray(env) ? env : [];
  const named = (name: string) => vars.find(v => getIn(v, 'name') === name);
  const fromEnv = getIn(named('MIG_STRATEGY'), 'value');
  if (typeof fromEnv === 'string') return fromEnv;
  const args = [getIn(container, 'command'), getIn(container, 'args')]
    .flatMap(list => (Array.isArray(list) ? list : []))
    .map(String);
  const fromArgs = args.find(a => a.startsWith('--mig-strategy='));
  if (fromArgs) return fromArgs.slice('--mig-strategy='.length);
  const unreadable =
    named('CONFIG_FILE') !== undefined ||
    args.some(a => a.startsWith('--config-file') || a === '--mig-strategy');
  return unreadable ? undefined : 'none';
}

function daemonSetPlugins(files: RepositoryFile[]): DeployedDevicePlugin[] {
  return objectsOf(files, /k8s-device-plugin/).flatMap(({ file, object }) => {
    if (object.kind !== 'DaemonSet') return [];
    const podSpec = getIn(object, 'spec', 'template', 'spec');
    const containers = getIn(podSpec, 'containers');
    const plugin = Array.isArray(containers)
      ? containers.find(c =>
          DEVICE_PLUGIN_IMAGE.test(String(getIn(c, 'image'))),
        )
      : undefined;
    if (!plugin) return [];
    const migStrategy = daemonSetMigStrategy(plugin);
    return [
      {
        kind: 'standalone' as const,
        readsNamedConfigs: false,
        ...(migStrategy ? { migStrategy } : {}),
        file,
        setting: `DaemonSet \`${String(object.metadata.name)}\` running the \`k8s-device-plugin\` image, in \`${file}\``,
        placement: podSchedulingOf(podSpec),
      },
    ];
  });
}

/** Bottlerocket's sharing settings as the device-plugin config (v1) they amount to. */
function bottlerocketConfig(sharing: NodeSharing | undefined): unknown {
  if (!sharing) return undefined;
  const field = sharing.mode === 'mps' ? 'mps' : 'timeSlicing';
  return {
    version: 'v1',
    sharing: {
      [field]: {
        renameByDefault: sharing.renameByDefault,
        resources: [
          { name: 'nvidia.com/gpu', replicas: sharing.slicesPerGpu ?? 1 },
        ],
      },
    },
  };
}

function bottlerocketPlugins(files: RepositoryFile[]): DeployedDevicePlugin[] {
  return objectsOf(files, /EC2NodeClass/).flatMap(({ file, object }) => {
    const setting =
      object.kind === 'EC2NodeClass' ? bottlerocketSetting(object) : undefined;
    if (!setting) return [];
    const name = String(object.metadata.name);
    const read = bottlerocketSharing(object);
    const sharing = read && !('unreadable' in read) ? read : undefined;
    const config = bottlerocketConfig(sharing);
    return [
      {
        kind: 'bottlerocket' as const,
        readsNamedConfigs: false,
        file,
        setting: `Bottlerocket's built-in device plugin (EC2NodeClass \`${name}\` with ${setting}, in \`${file}\`)`,
        nodeClass: name,
        nodeClassSetting: setting,
        ...(config ? { config } : {}),
        ...(sharing
          ? {
              sharesByDefault: `${describeSharing(sharing)}: ${sharing.source}`,
            }
          : {}),
      },
    ];
  });
}

/**
 * The device plugin other than the GPU Operator's the planner's capability
 * rules judge (`ClusterGpuStack.devicePlugin`): Bottlerocket's on the node
 * class the profile's pools launch with, else the first standalone one (its
 * chart before its static DaemonSet).
 */
function otherDevicePlugin(
  plugins: readonly DeployedDevicePlugin[],
  cluster: ClusterProfile,
): OtherDevicePlugin | undefined {
  const { kind, name } = cluster.nodeClass;
  const rocket = plugins.find(
    p =>
      p.kind === 'bottlerocket' &&
      kind === 'EC2NodeClass' &&
      p.nodeClass === name,
  );
  if (rocket) {
    return {
      kind: 'bottlerocket',
      readsNamedConfigs: false,
      file: rocket.file,
      setting: `EC2NodeClass \`${name}\` of the GPU pools with ${rocket.nodeClassSetting}, in \`${rocket.file}\``,
      ...(rocket.sharesByDefault
        ? { sharesByDefault: rocket.sharesByDefault }
        : {}),
      ...(rocket.config ? { config: rocket.config } : {}),
    };
  }
  const standalone = plugins.find(p => p.kind === 'standalone');
  if (!standalone) return undefined;
  return {
    kind: 'standalone',
    readsNamedConfigs: standalone.readsNamedConfigs,
    file: standalone.file,
    setting: standalone.setting,
    ...(standalone.sharesByDefault
      ? { sharesByDefault: standalone.sharesByDefault }
      : {}),
    ...(standalone.migStrategy ? { migStrategy: standalone.migStrategy } : {}),
  };
}

/**
 * The device plugins `files` deploy for `cluster`; `devicePlugins` absent
 * when they declare none at all (what runs is not the repository's to say).
 */
export async function deployedDevicePlugins(
  tree: RepoTree,
  cluster: ClusterProfile,
  files: RepositoryFile[],
): Promise<Deployed> {
  const operator = await operatorPlugins(tree, files);
  const plugins = [
    ...(operator.devicePlugins ?? []),
    ...(await chartPlugins(tree, cluster, files)),
    ...daemonSetPlugins(files),
    ...(await chartFolderDevicePlugins(tree, files)),
    ...bottlerocketPlugins(files),
  ];
  const dra = await draDrivers(tree, files);
  const other = otherDevicePlugin(plugins, cluster);
  const derived = {
    ...(dra.length > 0 ? { draDrivers: dra } : {}),
    ...(other ? { devicePlugin: other } : {}),
  };
  if (plugins.length === 0 && !operator.operatorDevicePluginOff) return derived;
  return { ...operator, devicePlugins: plugins, ...derived };
}
