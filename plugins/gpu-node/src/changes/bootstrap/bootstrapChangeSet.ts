/**
 * The once-per-cluster change set that prepares a cluster for GPU requests,
 * written through the request flow's merge engine (`kustomization.ts`,
 * `applyConfigs.ts`) into the files the repository layout names, so a
 * request later reads and extends exactly what the bootstrap wrote.
 */
import {
  generatedNodeClass,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { resolveLayout, type LayoutInput } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { ALL_DISABLED_MIG_CONFIG, applyMigConfig } from '../applyConfigs';
import { MIG_CONFIG_KEY } from '../applyPlan';
import {
  addConfigMapFile,
  addResource,
  openKustomization,
  relativeTo,
  useStableGeneratorNames,
} from '../kustomization';
import { nodeClassesElsewhere } from '../nodeClasses';
import { StagedTree } from '../stagedTree';
import type { ChangeSet } from '../types';
import { BOOTSTRAP_HEADER, bootstrapYaml } from './bootstrapFile';
import { bootstrapPaths, type BootstrapPaths } from './bootstrapPaths';
import {
  buildBinPackingSchedulerConfig,
  buildGpuOperatorValues,
  DEFAULT_DEVICE_PLUGIN_CONFIG,
} from './gpuOperatorValues';
import { bootstrapKarpenter } from './karpenter/bootstrapKarpenter';
import { karpenterNotes } from './karpenter/karpenterNotes';

/**
 * What a bootstrap pins and adds beyond its fixed files.
 *
 * @public
 */
export interface BootstrapOptions {
  /** GPU Operator Helm chart version (`helm search repo nvidia/gpu-operator`). */
  operatorChartVersion: string;
  /** Add the `gpu-binpack` scheduler profile ConfigMap. */
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

/** What the node class file says about itself, per kind. */
const NODE_CLASS_COMMENTS: Record<string, string> = {
  EC2NodeClass:
    'EC2NodeClass of the GPU NodePools: al2023@latest picks the NVIDIA AMI variant per instance type.',
  AKSNodeClass:
    'AKSNodeClass of the GPU NodePools: AKS installs the NVIDIA driver (gpu.mode Driver).',
};

/**
 * A bootstrap's change set, and what its pull request must tell the
 * reviewer beyond the files.
 *
 * @public
 */
export interface BootstrapChangeSet extends ChangeSet {
  /**
   * Markdown sentences for the description, one list item each: Karpenter's
   * release the bootstrap wrote and what is left to fill in, or the one it
   * found (never edited), what that sets the NodeOverlay gate to, what to
   * set where, and where the cluster profile disagrees. Empty for a cluster
   * without Karpenter.
   */
  notes: string[];
}

const isBlank = (text: string | undefined) =>
  text === undefined || text.trim() === '';

/**
 * A file the bootstrap starts carries its header; the engine then merges
 * into it exactly as into a file that was already there.
 */
async function startWithHeader(
  staged: StagedTree,
  path: string,
  start: string,
): Promise<void> {
  if (isBlank(await staged.read(path))) {
    await staged.write(path, `${BOOTSTRAP_HEADER}${start}`);
  }
}

/**
 * The cluster's GPU kustomization: the node class, and the two ConfigMap
 * generators (device-plugin configs, then mig-parted) with stable names.
 * A new file lists the generators in that order; in an existing one the
 * engine places and keeps entries as a request does.
 */
async function mergeGpuKustomization(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  nodeClassFile: string | undefined,
): Promise<void> {
  const path = paths.gpuKustomization;
  const generator = (ref: ClusterProfile['devicePluginConfigMap']) =>
    `  - name: ${ref.name}\n    namespace: ${ref.namespace}\n`;
  await startWithHeader(
    staged,
    path,
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n' +
      'resources: []\ngeneratorOptions:\n  disableNameSuffixHash: true\n' +
      `configMapGenerator:\n${generator(cluster.devicePluginConfigMap)}${generator(cluster.migPartedConfigMap)}`,
  );
  const kustomization = openKustomization(path, await staged.read(path));
  if (nodeClassFile) {
    addResource(kustomization, relativeTo(path, nodeClassFile));
  }
  useStableGeneratorNames(kustomization);
  addConfigMapFile(
    kustomization,
    cluster.devicePluginConfigMap,
    DEFAULT_DEVICE_PLUGIN_CONFIG,
    relativeTo(path, paths.defaultDevicePluginConfig),
  );
  addConfigMapFile(
    kustomization,
    cluster.migPartedConfigMap,
    MIG_CONFIG_KEY,
    relativeTo(path, paths.migConfig),
  );
  const content = kustomization.newContent();
  if (content !== undefined) await staged.write(path, content);
}

/**
 * The once-per-cluster change set: GPU Operator (Helm values + kustomize
 * helmCharts), the default device-plugin config, the `all-disabled` MIG
 * config, the GPU EC2NodeClass, optionally the bin-packing scheduler
 * profile, and on a Karpenter cluster Karpenter's release unless the
 * repository already declares one (see `notes`). Idempotent: a
 * bootstrapped repository yields an empty change set.
 *
 * @public
 */
export async function buildBootstrapChangeSet(
  tree: RepoTree,
  cluster: ClusterProfile,
  options: BootstrapOptions,
): Promise<BootstrapChangeSet> {
  const staged = new StagedTree(tree);
  const layout = resolveLayout(options.layout);
  const paths = bootstrapPaths(layout, cluster.name);
  const operatorNamespace = cluster.devicePluginConfigMap.namespace;

  await staged.write(
    paths.operatorValues,
    bootstrapYaml(
      buildGpuOperatorValues(cluster),
      'Helm values of the NVIDIA GPU Operator (ClusterPolicy). Operands (device plugin, GFD, DCGM exporter, MIG manager) run only on nodes the operator labels nvidia.com/gpu.present=true (from NFD feature.node.kubernetes.io/pci-10de.present); ClusterPolicy has no per-daemonset nodeSelector, so they get the GPU taint tolerations here and the operator itself is kept off GPU nodes.',
    ),
  );
  await staged.write(
    paths.operatorKustomization,
    bootstrapYaml({
      apiVersion: 'kustomize.config.k8s.io/v1beta1',
      kind: 'Kustomization',
      helmCharts: [
        {
          name: 'gpu-operator',
          repo: 'https://helm.ngc.nvidia.com/nvidia',
          version: options.operatorChartVersion,
          releaseName: 'gpu-operator',
          namespace: operatorNamespace,
          includeCRDs: true,
          valuesFile: 'values.yaml',
        },
      ],
    }),
  );
  await staged.write(
    paths.defaultDevicePluginConfig,
    bootstrapYaml(
      { version: 'v1', flags: { migStrategy: 'none' } },
      'Device-plugin config for GPU nodes without a nvidia.com/device-plugin.config label: whole GPUs, no sharing.',
    ),
  );
  await startWithHeader(staged, paths.migConfig, 'version: v1\n');
  await applyMigConfig(
    staged,
    paths.migConfig,
    ALL_DISABLED_MIG_CONFIG.name,
    ALL_DISABLED_MIG_CONFIG.entries,
    { whenDifferent: 'keep' },
  );

  let nodeClassFile: string | undefined;
  // The bootstrap is where the GPU node class comes from, whatever the
  // profile says about generating one per pool; but never a second copy of
  // one a pool file already defines (kustomize rejects duplicate objects).
  const nodeClassPath = paths.nodeClass(cluster.nodeClass.name);
  const nodeClass = generatedNodeClass({ ...cluster, generateNodeClass: true });
  if (
    nodeClass &&
    !(
      await nodeClassesElsewhere(staged, layout, cluster.name, nodeClassPath)
    ).has(`${nodeClass.kind}/${cluster.nodeClass.name}`)
  ) {
    await staged.write(
      nodeClassPath,
      bootstrapYaml(nodeClass, NODE_CLASS_COMMENTS[nodeClass.kind]),
    );
    nodeClassFile = nodeClassPath;
  }
  await mergeGpuKustomization(staged, paths, cluster, nodeClassFile);

  if (options.binPacking) {
    const config = buildBinPackingSchedulerConfig();
    await staged.write(
      paths.scheduler,
      bootstrapYaml(
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: 'gpu-binpack-scheduler-config',
            namespace: 'kube-system',
          },
          data: {
            'config.yaml': bootstrapYaml(config).replace(BOOTSTRAP_HEADER, ''),
          },
        },
        'Mount into a second kube-scheduler (--config); GPU pods opt in with schedulerName: gpu-binpack.',
      ),
    );
  }
  const karpenter = await bootstrapKarpenter(staged, layout, paths, cluster);
  return {
    ...staged.toChangeSet(),
    notes: karpenterNotes(cluster, karpenter),
  };
}
