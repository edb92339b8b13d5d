/**
 * The once-per-cluster change set that prepares a cluster for GPU requests,
 * written through the request flow's merge engine (`kustomization.ts`,
 * `applyConfigs.ts`) into the files the repository layout names, so a
 * request later reads and extends exactly what the bootstrap wrote.
 */
import { posix } from 'node:path';
import {
  generatedNodeClass,
  type ClusterProfile,
  type ConfigMapRef,
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
import {
  BOOTSTRAP_HEADER,
  bootstrapYaml,
  isBlank,
  isBootstrapFile,
  writeBootstrapFiles,
  type BootstrapFileWrite,
} from './bootstrapFile';
import { bootstrapPaths, type BootstrapPaths } from './bootstrapPaths';
import { handWrittenConfigMapNotes } from './configMapNotes';
import {
  buildBinPackingSchedulerConfig,
  buildGpuOperatorValues,
  DEFAULT_DEVICE_PLUGIN_CONFIG,
} from './gpuOperatorValues';
import { bootstrapKarpenter } from './karpenter/bootstrapKarpenter';
import { karpenterNotes } from './karpenter/karpenterNotes';
import {
  devicePluginDefaultKey,
  migManagerDefaultEntry,
  operatorConfigMaps,
} from './operatorConfigMaps';

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
   * Markdown sentences for the description, one list item each: the
   * ConfigMaps the GPU Operator reads that the team wrote by hand (left as
   * they are, and the keys requests use); Karpenter's release the bootstrap
   * wrote and what is left to fill in, or the one it found (never edited),
   * what that sets the NodeOverlay gate to, what to set where, and where the
   * cluster profile disagrees. Empty when there is nothing to say.
   */
  notes: string[];
}

/** The ConfigMaps the product generates in the GPU folder; undefined for one the team wrote by hand. */
interface GeneratedConfigMaps {
  devicePlugin?: ConfigMapRef;
  migParted?: ConfigMapRef;
}

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
 * The cluster's GPU kustomization: the node class, and the generators of
 * the ConfigMaps the product writes (device-plugin configs, then
 * mig-parted) with stable names; none for a ConfigMap the team wrote by
 * hand. A new file lists the generators in that order; in an existing one
 * the engine places and keeps entries as a request does.
 */
async function mergeGpuKustomization(
  staged: StagedTree,
  paths: BootstrapPaths,
  generated: GeneratedConfigMaps,
  nodeClassFile: string | undefined,
): Promise<void> {
  const path = paths.gpuKustomization;
  const refs = [generated.devicePlugin, generated.migParted].filter(
    (ref): ref is ConfigMapRef => ref !== undefined,
  );
  const generators = refs
    .map(ref => `  - name: ${ref.name}\n    namespace: ${ref.namespace}\n`)
    .join('');
  await startWithHeader(
    staged,
    path,
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n' +
      (refs.length > 0
        ? `generatorOptions:\n  disableNameSuffixHash: true\nconfigMapGenerator:\n${generators}`
        : ''),
  );
  const kustomization = openKustomization(path, await staged.read(path));
  if (nodeClassFile) {
    addResource(kustomization, relativeTo(path, nodeClassFile));
  }
  if (refs.length > 0) useStableGeneratorNames(kustomization);
  if (generated.devicePlugin) {
    addConfigMapFile(
      kustomization,
      generated.devicePlugin,
      DEFAULT_DEVICE_PLUGIN_CONFIG,
      relativeTo(path, paths.defaultDevicePluginConfig),
    );
  }
  if (generated.migParted) {
    addConfigMapFile(
      kustomization,
      generated.migParted,
      MIG_CONFIG_KEY,
      relativeTo(path, paths.migConfig),
    );
  }
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
  const operatorFolder = posix.dirname(paths.operatorKustomization);
  // The ConfigMaps the GPU Operator reads: the product generates each one
  // the team did not write by hand in the cluster's folder.
  const configMaps = await operatorConfigMaps(tree, layout, cluster);
  const generated: GeneratedConfigMaps = {
    devicePlugin: configMaps.devicePlugin.handWritten
      ? undefined
      : configMaps.devicePlugin.ref,
    migParted: configMaps.migParted.handWritten
      ? undefined
      : configMaps.migParted.ref,
  };

  const files: BootstrapFileWrite[] = [
    {
      path: paths.operatorValues,
      content: bootstrapYaml(
        buildGpuOperatorValues(cluster, {
          devicePlugin: devicePluginDefaultKey(configMaps.devicePlugin),
          migManager: migManagerDefaultEntry(configMaps.migParted),
        }),
        'Helm values of the NVIDIA GPU Operator (ClusterPolicy). Operands (device plugin, GFD, DCGM exporter, MIG manager) run only on nodes the operator labels nvidia.com/gpu.present=true (from NFD feature.node.kubernetes.io/pci-10de.present); ClusterPolicy has no per-daemonset nodeSelector, so they get the GPU taint tolerations here and the operator itself is kept off GPU nodes.',
      ),
      what: "the GPU Operator's Helm values",
      remedy: `Move it out of ${operatorFolder}/, then run the bootstrap again.`,
    },
    {
      path: paths.operatorKustomization,
      content: bootstrapYaml({
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
      what: "the GPU Operator's Helm release (a kustomize helmCharts entry)",
      remedy: `Move it out of ${operatorFolder}/, then run the bootstrap again.`,
    },
  ];
  if (generated.devicePlugin) {
    files.push({
      path: paths.defaultDevicePluginConfig,
      content: bootstrapYaml(
        { version: 'v1', flags: { migStrategy: 'none' } },
        'Device-plugin config for GPU nodes without a nvidia.com/device-plugin.config label: whole GPUs, no sharing.',
      ),
      what: `the default device-plugin config (key \`${DEFAULT_DEVICE_PLUGIN_CONFIG}\` of ConfigMap ${generated.devicePlugin.namespace}/${generated.devicePlugin.name}: whole GPUs for nodes without a config label)`,
      remedy: `Move it, or, when the device plugin reads a ConfigMap you write by hand in the cluster's folder, point the cluster profile's devicePluginConfigMap at it (the bootstrap then writes no config of its own), then run the bootstrap again.`,
    });
  }

  // The bootstrap is where the GPU node class comes from, whatever the
  // profile says about generating one per pool; but never a second copy of
  // one the cluster's files define already (kustomize rejects duplicate
  // objects), a hand-written file in its place included.
  let nodeClassFile: string | undefined;
  const nodeClassPath = paths.nodeClass(cluster.nodeClass.name);
  const nodeClass = generatedNodeClass({ ...cluster, generateNodeClass: true });
  const ownNodeClassFile = isBootstrapFile(await staged.read(nodeClassPath));
  if (
    nodeClass &&
    !(
      await nodeClassesElsewhere(
        staged,
        layout,
        cluster.name,
        ownNodeClassFile ? nodeClassPath : '',
      )
    ).has(`${nodeClass.kind}/${cluster.nodeClass.name}`)
  ) {
    files.push({
      path: nodeClassPath,
      content: bootstrapYaml(nodeClass, NODE_CLASS_COMMENTS[nodeClass.kind]),
      what: `the GPU ${nodeClass.kind} \`${cluster.nodeClass.name}\``,
      remedy: `Move it, or define the ${nodeClass.kind} \`${cluster.nodeClass.name}\` in it (the bootstrap then keeps that one), then run the bootstrap again.`,
    });
    nodeClassFile = nodeClassPath;
  }

  if (options.binPacking) {
    const config = buildBinPackingSchedulerConfig();
    files.push({
      path: paths.scheduler,
      content: bootstrapYaml(
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
      what: 'the gpu-binpack scheduler profile',
      remedy:
        'Move it, or run the bootstrap without the bin-packing scheduler profile.',
    });
  }
  // Refuses before anything is staged when a file in the way is not the bootstrap's.
  await writeBootstrapFiles(staged, files);

  if (generated.migParted) {
    await startWithHeader(staged, paths.migConfig, 'version: v1\n');
    await applyMigConfig(
      staged,
      paths.migConfig,
      ALL_DISABLED_MIG_CONFIG.name,
      ALL_DISABLED_MIG_CONFIG.entries,
      { whenDifferent: 'keep' },
    );
  }
  await mergeGpuKustomization(staged, paths, generated, nodeClassFile);

  const karpenter = await bootstrapKarpenter(staged, layout, paths, cluster);
  return {
    ...staged.toChangeSet(),
    notes: [
      ...handWrittenConfigMapNotes(configMaps, paths.operatorValues),
      ...karpenterNotes(cluster, karpenter),
    ],
  };
}
