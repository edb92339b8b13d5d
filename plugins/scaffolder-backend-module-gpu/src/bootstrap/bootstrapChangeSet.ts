import {
  Document,
  isMap,
  parseAllDocuments,
  parseDocument,
  type YAMLMap,
  type YAMLSeq,
} from 'yaml';
import {
  buildEc2NodeClass,
  shouldGenerateEc2NodeClass,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import {
  StagedTree,
  type ChangeSet,
  type RepoTree,
} from '@gpu-gitops/plugin-gpu-node';
import {
  buildBinPackingSchedulerConfig,
  buildGpuOperatorValues,
  DEFAULT_DEVICE_PLUGIN_CONFIG,
} from './gpuOperatorValues';

export interface BootstrapOptions {
  /** GPU Operator Helm chart version (`helm search repo nvidia/gpu-operator`). */
  operatorChartVersion: string;
  /** Add the `gpu-binpack` scheduler profile ConfigMap. */
  binPacking: boolean;
}

export const DEFAULT_OPERATOR_CHART_VERSION = 'v26.7.0';

const HEADER = '# Managed by the Backstage gpu-cluster-bootstrap template.\n';

function yamlText(value: unknown, comment?: string): string {
  const doc = new Document(value);
  return `${HEADER}${comment ? `# ${comment}\n` : ''}${doc.toString({ lineWidth: 0 })}`;
}

/** Paths of everything the bootstrap owns for a cluster. */
export function bootstrapPaths(cluster: string) {
  const gpu = `clusters/${cluster}/gpu`;
  const operator = `clusters/${cluster}/gpu-operator`;
  return {
    gpuKustomization: `${gpu}/kustomization.yaml`,
    defaultDevicePluginConfig: `${gpu}/device-plugin/${DEFAULT_DEVICE_PLUGIN_CONFIG}.yaml`,
    migConfig: `${gpu}/mig/config.yaml`,
    nodeClass: (name: string) => `${gpu}/nodeclasses/${name}.yaml`,
    operatorKustomization: `${operator}/kustomization.yaml`,
    operatorValues: `${operator}/values.yaml`,
    scheduler: `clusters/${cluster}/gpu-scheduler/gpu-binpack.yaml`,
  };
}

function seq(doc: Document, path: string[]): YAMLSeq {
  let node = doc.getIn(path) as YAMLSeq | undefined;
  if (!node) {
    doc.setIn(path, doc.createNode([]));
    node = doc.getIn(path) as YAMLSeq;
  }
  return node;
}

function seqValues(node: YAMLSeq): string[] {
  return node.items.map(i => String((i as { value?: unknown }).value ?? i));
}

/**
 * Adds what the cluster's GPU kustomization needs (node class, the two
 * ConfigMap generators with stable names) to an existing file, keeping its
 * comments and entries, or starts one.
 */
function mergeGpuKustomization(
  text: string | undefined,
  cluster: ClusterProfile,
  nodeClassFile: string | undefined,
): string {
  const doc = parseDocument(
    text && text.trim() !== ''
      ? text
      : `${HEADER}apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n`,
  );
  const resources = seq(doc, ['resources']);
  if (nodeClassFile && !seqValues(resources).includes(nodeClassFile)) {
    resources.items.push(doc.createNode(nodeClassFile));
  }
  if (doc.getIn(['generatorOptions', 'disableNameSuffixHash']) !== true) {
    // Node labels and the ClusterPolicy refer to the ConfigMaps by name.
    doc.setIn(['generatorOptions', 'disableNameSuffixHash'], true);
  }
  const generators = seq(doc, ['configMapGenerator']);
  const ensure = (name: string, namespace: string, entry: string) => {
    let generator = generators.items.find(
      g => isMap(g) && g.get('name') === name,
    ) as YAMLMap | undefined;
    if (!generator) {
      generator = doc.createNode({ name, namespace, files: [] }) as YAMLMap;
      generators.items.push(generator);
    }
    const files = generator.get('files') as YAMLSeq | undefined;
    const list = files ?? (doc.createNode([]) as YAMLSeq);
    if (!files) generator.set('files', list);
    const key = entry.split('=')[0];
    if (!seqValues(list).some(v => v.split('=')[0] === key)) {
      list.items.push(doc.createNode(entry));
    }
  };
  ensure(
    cluster.devicePluginConfigMap.name,
    cluster.devicePluginConfigMap.namespace,
    `${DEFAULT_DEVICE_PLUGIN_CONFIG}=device-plugin/${DEFAULT_DEVICE_PLUGIN_CONFIG}.yaml`,
  );
  ensure(
    cluster.migPartedConfigMap.name,
    cluster.migPartedConfigMap.namespace,
    'config.yaml=mig/config.yaml',
  );
  return doc.toString({ lineWidth: 0 });
}

/** Keeps every mig-parted entry the file has and adds `all-disabled` (the ClusterPolicy default). */
function mergeMigConfig(text: string | undefined): string {
  const doc = parseDocument(
    text && text.trim() !== '' ? text : `${HEADER}version: v1\n`,
  );
  if (!doc.hasIn(['mig-configs', 'all-disabled'])) {
    doc.setIn(
      ['mig-configs', 'all-disabled'],
      doc.createNode([{ devices: 'all', 'mig-enabled': false }]),
    );
  }
  return doc.toString({ lineWidth: 0 });
}

async function definesNodeClassElsewhere(
  staged: StagedTree,
  folder: string,
  name: string,
  exceptPath: string,
): Promise<boolean> {
  for (const path of await staged.list(folder)) {
    if (path === exceptPath || !/\.ya?ml$/.test(path)) continue;
    const text = (await staged.read(path)) ?? '';
    for (const doc of parseAllDocuments(text)) {
      const value = doc.toJS() as {
        kind?: string;
        metadata?: { name?: string };
      } | null;
      if (value?.kind === 'EC2NodeClass' && value.metadata?.name === name) {
        return true;
      }
    }
  }
  return false;
}

/**
 * The once-per-cluster change set: GPU Operator (Helm values + kustomize
 * helmCharts), the default device-plugin config, the `all-disabled` MIG
 * config, the GPU EC2NodeClass and optionally the bin-packing scheduler
 * profile. Idempotent: a bootstrapped repository yields an empty change set.
 */
export async function buildBootstrapChangeSet(
  tree: RepoTree,
  cluster: ClusterProfile,
  options: BootstrapOptions,
): Promise<ChangeSet> {
  const staged = new StagedTree(tree);
  const paths = bootstrapPaths(cluster.name);
  const operatorNamespace = cluster.devicePluginConfigMap.namespace;

  await staged.write(
    paths.operatorValues,
    yamlText(
      buildGpuOperatorValues(cluster),
      'Helm values of the NVIDIA GPU Operator (ClusterPolicy). Operands (device plugin, GFD, DCGM exporter, MIG manager) run only on nodes the operator labels nvidia.com/gpu.present=true (from NFD feature.node.kubernetes.io/pci-10de.present); ClusterPolicy has no per-daemonset nodeSelector, so they get the GPU taint tolerations here and the operator itself is kept off GPU nodes.',
    ),
  );
  await staged.write(
    paths.operatorKustomization,
    yamlText({
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
    yamlText(
      { version: 'v1', flags: { migStrategy: 'none' } },
      'Device-plugin config for GPU nodes without a nvidia.com/device-plugin.config label: whole GPUs, no sharing.',
    ),
  );
  await staged.write(
    paths.migConfig,
    mergeMigConfig(await staged.read(paths.migConfig)),
  );

  let nodeClassResource: string | undefined;
  // The bootstrap is where the GPU node class comes from, whatever the
  // profile says about generating one per pool; but never a second copy of
  // one a pool file already defines (kustomize rejects duplicate objects).
  if (
    shouldGenerateEc2NodeClass({ ...cluster, generateNodeClass: true }) &&
    !(await definesNodeClassElsewhere(
      staged,
      `clusters/${cluster.name}/gpu/`,
      cluster.nodeClass.name,
      paths.nodeClass(cluster.nodeClass.name),
    ))
  ) {
    const file = paths.nodeClass(cluster.nodeClass.name);
    await staged.write(
      file,
      yamlText(
        buildEc2NodeClass(cluster),
        'EC2NodeClass of the GPU NodePools: al2023@latest picks the NVIDIA AMI variant per instance type.',
      ),
    );
    nodeClassResource = `nodeclasses/${cluster.nodeClass.name}.yaml`;
  }
  await staged.write(
    paths.gpuKustomization,
    mergeGpuKustomization(
      await staged.read(paths.gpuKustomization),
      cluster,
      nodeClassResource,
    ),
  );

  if (options.binPacking) {
    const config = buildBinPackingSchedulerConfig();
    await staged.write(
      paths.scheduler,
      yamlText(
        {
          apiVersion: 'v1',
          kind: 'ConfigMap',
          metadata: {
            name: 'gpu-binpack-scheduler-config',
            namespace: 'kube-system',
          },
          data: {
            'config.yaml': yamlText(config).replace(HEADER, ''),
          },
        },
        'Mount into a second kube-scheduler (--config); GPU pods opt in with schedulerName: gpu-binpack.',
      ),
    );
  }
  return staged.toChangeSet();
}
