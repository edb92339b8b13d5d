/**
 * The once-per-cluster change set that prepares a cluster for GPU requests,
 * written through the request flow's merge engine (`kustomization.ts`,
 * `applyConfigs.ts`) into the files the repository layout names, so a
 * request later reads and extends exactly what the bootstrap wrote.
 */
import {
  type ClusterGpuStack,
  type ConfigMapRef,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { posix } from 'node:path';
import {
  clusterScopePath,
  resolveLayout,
  type LayoutInput,
  type ResolvedRepoLayout,
} from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { ALL_DISABLED_MIG_CONFIG, applyMigConfig } from '../applyConfigs';
import { StagedTree } from '../stagedTree';
import type { ChangeSet } from '../types';
import {
  bootstrapYaml,
  isBootstrapFile,
  writeBootstrapFiles,
  type BootstrapFileWrite,
} from './bootstrapFile';
import { bootstrapPaths, type BootstrapPaths } from './bootstrapPaths';
import {
  mergeGpuKustomization,
  startWithHeader,
  type GeneratedConfigMaps,
} from './gpuKustomization';
import { handWrittenConfigMapNotes } from './configMapNotes';
import { gpuNodeClassFile } from './gpuNodeClassFile';
import { DEFAULT_DEVICE_PLUGIN_CONFIG } from './gpuOperatorValues';
import { bootstrapScheduler } from './scheduler/bootstrapScheduler';
import { clusterReleaseFiles } from './helmReleases/findHelmReleases';
import { bootstrapKarpenter } from './karpenter/bootstrapKarpenter';
import {
  bootstrapGpuOperator,
  operatorMayRead,
  type GpuOperatorOutcome,
} from './gpuOperator/bootstrapGpuOperator';
import { gpuOperatorNotes } from './gpuOperator/gpuOperatorNotes';
import { karpenterNotes } from './karpenter/karpenterNotes';
import { gpuStackNotes } from './gpuStackNotes';
import {
  operatorConfigMaps,
  type OperatorConfigMaps,
} from './operatorConfigMaps';
import { AUTO_MODE_GPU_STACK } from './autoModeBootstrap';
import { GKE_GPU_STACK } from './gkeBootstrap';
import {
  buildProviderStackBootstrap,
  type ProviderGpuStack,
} from './providerStackBootstrap';
import { readGpuStack } from '../../repo/gpuStack/readGpuStack';
import { wireGpuFolders, type GpuFolder } from './wiring/wireGpuFolders';
import { addOnCharts } from './addOnCharts';
import {
  retireBootstrapFolders,
  type StaleFolder,
} from './retireBootstrapFolders';
import { bootstrapGpuConfigsDelivery } from '../workloadCluster/bootstrapDelivery';
import {
  workloadClusterIn,
  type WorkloadCluster,
} from '../workloadCluster/managementCluster';
import { helmChartProxyFile } from '../workloadCluster/helmChartProxyRelease';
import { GPU_OPERATOR_CHART } from './gpuOperator/gpuOperatorChart';
import {
  splitByCluster,
  workloadClusterReleaseNotes,
} from '../workloadCluster/workloadClusterReleases';
import { deliveredScheduler } from '../workloadCluster/schedulerDelivery';

/**
 * What a bootstrap pins and adds beyond its fixed files.
 *
 * @public
 */
export interface BootstrapOptions {
  /** GPU Operator Helm chart version (`helm search repo nvidia/gpu-operator`). */
  operatorChartVersion: string;
  /**
   * Run the `gpu-binpack` scheduler (`scheduler/`); written also when the
   * cluster profile says `binPacking: true`, whose GPU workloads use it.
   */
  binPacking: boolean;
  /** Path templates; the default layout when omitted (as for `applyPlan`). */
  layout?: LayoutInput;
}

/**
 * The GPU Operator chart version a bootstrap pins unless told another
 * (releases: https://github.com/NVIDIA/gpu-operator/releases).
 *
 * @public
 */
export const DEFAULT_OPERATOR_CHART_VERSION = 'v26.7.0';

/**
 * A bootstrap's change set, and what its pull request must tell the
 * reviewer beyond the files.
 *
 * @public
 */
export interface BootstrapChangeSet extends ChangeSet {
  /**
   * What installs the GPU Operator: the bootstrap's own release in the
   * cluster's `gpu-operator/` folder (written, or kept as it is), or one
   * the repository declares (never edited; `notes` say what to set in it);
   * none on EKS Auto Mode and GKE, whose GPU nodes run the provider's
   * NVIDIA driver and device plugin (`providerStackBootstrap.ts`).
   */
  gpuOperatorRelease: 'bootstrap' | 'repository' | 'eks-auto-mode' | 'gke';
  /**
   * Markdown sentences for the description, one list item each: the GPU
   * Operator release the repository declares (never edited), what it sets
   * as the product needs, what to set where, and where the cluster profile
   * disagrees; the ConfigMaps the GPU Operator reads that the team wrote by
   * hand (left as they are, and the keys requests use); Karpenter's release
   * the bootstrap wrote and what is left to fill in, or the one it found
   * (never edited), what that sets the NodeOverlay gate to, what to set
   * where, and where the cluster profile disagrees; a device plugin that
   * is not the GPU Operator's and the requests the cluster cannot run (what
   * runs on the GPU nodes); the entries added to the cluster's
   * kustomization, and each Argo CD Application or Flux Kustomization that
   * does not apply what the bootstrap wrote, with the fix. Empty when there
   * is nothing to say.
   */
  notes: string[];
}

/**
 * The ConfigMaps the bootstrap generates: each the team did not write by
 * hand and the operator may read; none for device-plugin configs when the
 * device plugin reads no ConfigMap of named configs (it never reads the
 * product's either).
 */
function generatedConfigMaps(
  configMaps: OperatorConfigMaps,
  stack: ClusterGpuStack,
  operator: GpuOperatorOutcome,
): GeneratedConfigMaps {
  const pluginReadsConfigs = stack.devicePlugin?.readsNamedConfigs ?? true;
  return {
    devicePlugin:
      configMaps.devicePlugin.handWritten ||
      !pluginReadsConfigs ||
      !operatorMayRead(operator, 'devicePlugin')
        ? undefined
        : configMaps.devicePlugin.ref,
    migParted:
      configMaps.migParted.handWritten ||
      !operatorMayRead(operator, 'migParted')
        ? undefined
        : configMaps.migParted.ref,
  };
}

/**
 * The default device-plugin config, key `DEFAULT_DEVICE_PLUGIN_CONFIG` of the
 * generated ConfigMap `ref`: whole GPUs, no sharing, for nodes without a
 * config label.
 */
function defaultDevicePluginConfigFile(
  paths: BootstrapPaths,
  ref: ConfigMapRef,
): BootstrapFileWrite {
  return {
    path: paths.defaultDevicePluginConfig,
    content: bootstrapYaml(
      { version: 'v1', flags: { migStrategy: 'none' } },
      'Device-plugin config for GPU nodes without a nvidia.com/device-plugin.config label: whole GPUs, no sharing.',
    ),
    what: `the default device-plugin config (key \`${DEFAULT_DEVICE_PLUGIN_CONFIG}\` of ConfigMap ${ref.namespace}/${ref.name}: whole GPUs for nodes without a config label)`,
    remedy: `Move it, or, when the device plugin reads a ConfigMap you write by hand in the cluster's folder, point the cluster profile's devicePluginConfigMap at it (the bootstrap then writes no config of its own), then run the bootstrap again.`,
  };
}

/**
 * The `all-disabled` MIG config in the generated mig-parted ConfigMap's
 * file; an entry of that name already there is kept as it is.
 */
async function writeAllDisabledMigConfig(
  staged: StagedTree,
  paths: BootstrapPaths,
): Promise<void> {
  await startWithHeader(staged, paths.migConfig, 'version: v1\n');
  await applyMigConfig(
    staged,
    paths.migConfig,
    ALL_DISABLED_MIG_CONFIG.name,
    ALL_DISABLED_MIG_CONFIG.entries,
    { whenDifferent: 'keep' },
  );
}

/** The providers that run the GPU stack on their GPU nodes themselves. */
const PROVIDER_GPU_STACKS: Partial<
  Record<ClusterProfile['provider'], ProviderGpuStack>
> = {
  'eks-auto-mode': AUTO_MODE_GPU_STACK,
  gke: GKE_GPU_STACK,
};

/** The folders the bootstrap writes that whatever applies the cluster must apply. */
function foldersToApply(
  paths: BootstrapPaths,
  ownOperator: boolean,
  ownKarpenter: boolean,
): GpuFolder[] {
  const folder = (file: string) => posix.dirname(file);
  return [
    {
      folder: folder(paths.gpuKustomization),
      what: 'the GPU folder',
      helm: false,
    },
    ...(ownOperator
      ? [
          {
            folder: folder(paths.operatorKustomization),
            what: "the GPU Operator's release",
            helm: true,
          },
        ]
      : []),
    ...(ownKarpenter
      ? [
          {
            folder: folder(paths.karpenterKustomization),
            what: "Karpenter's release",
            helm: true,
          },
        ]
      : []),
  ];
}

/**
 * The bootstrap's own GPU Operator release as the cluster's folder takes
 * it: its kustomize release folder, or on a Cluster API management
 * repository whose workload Cluster has labels, the HelmChartProxy that
 * installs it on the workload cluster (in the GPU folder, which the
 * management cluster applies). A release folder an earlier run wrote (the
 * Cluster had no labels then) is retired in the same change (`stale`).
 */
function workloadClusterOperator(
  operator: GpuOperatorOutcome,
  workload: WorkloadCluster | undefined,
  paths: BootstrapPaths,
  folderWritten: boolean,
): {
  files: BootstrapFileWrite[];
  resources: string[];
  ownFolder: boolean;
  notes: string[];
  stale: StaleFolder[];
} {
  if (operator.kind !== 'bootstrap') {
    return { files: [], resources: [], ownFolder: false, notes: [], stale: [] };
  }
  const proxy =
    workload && Object.keys(workload.labels).length > 0
      ? helmChartProxyFile(operator.files, workload, paths.gpuKustomization)
      : undefined;
  if (!proxy || !workload) {
    return {
      files: [...operator.files],
      resources: [],
      ownFolder: true,
      notes: [],
      stale: [],
    };
  }
  const selector = Object.entries(workload.labels)
    .map(([k, v]) => `\`${k}: ${v}\``)
    .join(', ');
  return {
    files: [proxy],
    resources: [proxy.path],
    ownFolder: false,
    notes: [
      `The GPU Operator runs in the workload cluster \`${workload.name}\`, where the GPU nodes are: the Cluster API add-on provider Helm (CAAPH) installs it there from HelmChartProxy \`${workload.namespace}/${GPU_OPERATOR_CHART}\` (\`${proxy.path}\`, its values in \`spec.valuesTemplate\`), which selects the Cluster by ${selector}. The management cluster must run CAAPH (\`clusterctl init --addon helm\`).`,
    ],
    // One change removes the earlier release and adds the proxy: the same
    // release name and namespace, so Helm installs the proxy's release only
    // once the earlier one's objects are pruned, never a second device plugin beside them.
    stale: folderWritten
      ? [
          {
            folder: posix.dirname(paths.operatorKustomization),
            what: "the GPU Operator's release",
            why: `the Cluster \`${workload.name}\` now has labels, so HelmChartProxy \`${workload.namespace}/${GPU_OPERATOR_CHART}\` installs the GPU Operator on the workload cluster instead (a release of the same name in the same namespace: Helm installs it once the earlier release's objects are pruned, so no two device plugins run on the same nodes)`,
          },
        ]
      : [],
  };
}

/**
 * The once-per-cluster change set: the GPU Operator's release (Helm values
 * + kustomize helmCharts) unless the repository declares one (then what to
 * set in it, see `notes`), the default device-plugin config and the
 * `all-disabled` MIG config unless the team wrote those ConfigMaps by hand,
 * the GPU EC2NodeClass, optionally the bin-packing scheduler (a second
 * kube-scheduler, its RBAC and profile, `scheduler/`), and
 * on a Karpenter cluster Karpenter's release unless the repository already
 * declares one; its GPU Operator runs no device plugin where another one
 * serves the GPU nodes, and the GPU folder is listed in the cluster's
 * kustomization (`wiring/`). It never replaces a file it did not write: it refuses, and
 * nothing is written. Idempotent: a bootstrapped repository yields an empty
 * change set.
 *
 * @public
 */
export async function buildBootstrapChangeSet(
  tree: RepoTree,
  cluster: ClusterProfile,
  options: BootstrapOptions,
): Promise<BootstrapChangeSet> {
  const providerStack = PROVIDER_GPU_STACKS[cluster.provider];
  if (providerStack) {
    return buildProviderStackBootstrap(tree, cluster, options, providerStack);
  }
  const staged = new StagedTree(tree);
  const layout = resolveLayout(options.layout);
  const paths = bootstrapPaths(layout, cluster.name);
  const read = await readAndBootstrapOperator(
    tree,
    staged,
    layout,
    cluster,
    options,
  );
  const clusterFolder = clusterScopePath(layout, cluster.name);
  const workload = await workloadClusterIn(tree, clusterFolder, cluster);
  const gpuFolder = await writeGpuFolder(
    staged,
    { layout, paths, cluster, options },
    read,
    workload,
  );
  const { operatorRelease, extra } = gpuFolder;
  const retired = await retireBootstrapFolders(
    staged,
    [...operatorRelease.stale, ...extra.stale],
    clusterFolder,
    read.releaseFiles,
  );
  const karpenter = await bootstrapKarpenter(
    staged,
    paths,
    cluster,
    read.releaseFiles,
  );
  const wiringNotes = await wireBootstrapFolders(staged, layout, cluster, {
    folders: [
      ...foldersToApply(
        paths,
        operatorRelease.ownFolder,
        karpenter.kind === 'managed',
      ),
      ...extra.folders,
    ],
    gpuFolder: posix.dirname(paths.gpuKustomization),
    workload,
    releaseFiles: read.releaseFiles,
    clusterFolder,
  });
  const { operator, configMaps, stack } = read;
  const operatorValues =
    operator.kind === 'bootstrap' ? paths.operatorValues : undefined;
  return {
    ...staged.toChangeSet(),
    gpuOperatorRelease: operator.kind,
    notes: [
      ...gpuOperatorNotes(operator),
      ...operatorRelease.notes,
      ...retired,
      ...handWrittenConfigMapNotes(configMaps, operatorValues),
      ...gpuStackNotes(cluster, stack, operatorValues),
      ...karpenterNotes(cluster, karpenter),
      ...extra.notes,
      ...(gpuFolder.scheduler?.notes ?? []),
      ...wiringNotes,
      ...gpuFolder.deliveryNotes,
    ],
  };
}

/** What the GPU Operator step read and decided (`readAndBootstrapOperator`). */
type OperatorStep = Awaited<ReturnType<typeof readAndBootstrapOperator>>;

/** Where and for what the bootstrap writes. */
interface BootstrapTarget {
  layout: ResolvedRepoLayout;
  paths: BootstrapPaths;
  cluster: ClusterProfile;
  options: BootstrapOptions;
}

/**
 * The GPU folder's files: the GPU Operator's release (or the HelmChartProxy
 * that installs it on a workload cluster), the add-on charts, the default
 * device-plugin and `all-disabled` MIG configs, the GPU node class and the
 * bin-packing scheduler, listed in the GPU kustomization, and the GPU
 * ConfigMaps carried to a workload cluster. Refuses before anything is
 * staged when a file in the way is not the bootstrap's.
 */
async function writeGpuFolder(
  staged: StagedTree,
  target: BootstrapTarget,
  read: OperatorStep,
  workload: WorkloadCluster | undefined,
) {
  const { layout, paths, cluster, options } = target;
  const { releaseFiles, stack, operator, generated } = read;
  const operatorRelease = workloadClusterOperator(
    operator,
    workload,
    paths,
    isBootstrapFile(await staged.read(paths.operatorKustomization)),
  );
  // NVIDIA's DRA driver and Kueue, as the profile asks and the team installs none.
  const extra = await addOnCharts(
    staged,
    paths,
    cluster,
    stack,
    releaseFiles,
    workload,
  );
  // The GPU node class, unless the cluster's files define it already.
  const nodeClassFile = await gpuNodeClassFile(staged, layout, paths, cluster);
  const { scheduler, carried } = deliveredScheduler(
    bootstrapScheduler(cluster, options.binPacking, paths.scheduler),
    workload,
  );
  await writeBootstrapFiles(staged, [
    ...operatorRelease.files,
    ...extra.files,
    ...(generated.devicePlugin
      ? [defaultDevicePluginConfigFile(paths, generated.devicePlugin)]
      : []),
    ...(nodeClassFile ? [nodeClassFile] : []),
    ...(scheduler?.file ? [scheduler.file] : []),
  ]);
  if (generated.migParted) await writeAllDisabledMigConfig(staged, paths);
  await mergeGpuKustomization(staged, paths, generated, [
    ...(nodeClassFile ? [nodeClassFile.path] : []),
    ...(scheduler?.file ? [scheduler.file.path] : []),
    ...operatorRelease.resources,
    ...extra.resources,
  ]);
  const deliveryNotes = await bootstrapGpuConfigsDelivery(
    staged,
    workload,
    cluster,
    paths.gpuKustomization,
    carried,
  );
  return { operatorRelease, extra, scheduler, deliveryNotes };
}

/**
 * The bootstrap's folders wired into what applies them: the management
 * cluster's into its kustomization or GitOps objects (`wireGpuFolders`), a
 * workload cluster's said where to apply (`workloadClusterReleaseNotes`).
 */
async function wireBootstrapFolders(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: ClusterProfile,
  wiring: {
    folders: Parameters<typeof splitByCluster>[0];
    gpuFolder: string;
    workload: Parameters<typeof splitByCluster>[2];
    releaseFiles: Parameters<typeof wireGpuFolders>[4];
    clusterFolder: string;
  },
): Promise<string[]> {
  const folders = splitByCluster(
    wiring.folders,
    wiring.gpuFolder,
    wiring.workload,
  );
  return [
    ...(await wireGpuFolders(
      staged,
      layout,
      cluster.name,
      folders.management,
      wiring.releaseFiles,
    )),
    ...workloadClusterReleaseNotes(
      folders.workload,
      wiring.workload,
      wiring.clusterFolder,
    ),
  ];
}

/**
 * What the GPU Operator step needs and writes: the ConfigMaps it reads
 * (generated unless the team wrote them by hand in the cluster's folder),
 * every file that may declare a Helm release for the cluster (read once for
 * every chart), what already runs on the GPU nodes (the operator adapts to
 * it) and the operator's own release.
 */
async function readAndBootstrapOperator(
  tree: RepoTree,
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  cluster: ClusterProfile,
  options: BootstrapOptions,
) {
  const paths = bootstrapPaths(layout, cluster.name);
  const configMaps = await operatorConfigMaps(tree, layout, cluster);
  const releaseFiles = await clusterReleaseFiles(tree, layout, cluster.name);
  const stack = await readGpuStack(tree, cluster, releaseFiles);
  const operator = await bootstrapGpuOperator(
    staged,
    paths,
    cluster,
    configMaps,
    options.operatorChartVersion,
    releaseFiles,
    stack,
  );
  const generated = generatedConfigMaps(configMaps, stack, operator);

  return { configMaps, releaseFiles, stack, operator, generated };
}
