/**
 * The one rule for what reaches a Cluster API workload cluster from its
 * management repository: the GPU ConfigMaps the GPU folder generates (the
 * device-plugin configs, the mig-parted config) are read by the device
 * plugin and the MIG manager in the workload cluster, so the management
 * cluster must carry them there. The GPU folder's `workload-cluster.yaml`
 * does it the way Cluster API repositories do: a ClusterResourceSet
 * selecting the workload Cluster by its labels, and the ConfigMap whose
 * `gpu-configs.yaml` key holds those ConfigMaps' manifests (as CAPA v2.11.1's
 * `test/e2e/data/infrastructure-aws/.../gpu/` ClusterResourceSet carries the
 * GPU Operator; CRS API: kubernetes-sigs/cluster-api v1.14.0
 * `core/config/crd/bases/addons.cluster.x-k8s.io_clusterresourcesets.yaml`).
 * Its content is a function of the generated ConfigMaps only, so a request
 * and its release rewrite it and the release gives the file back as it was.
 * The pools (MachineDeployment and templates) stay the management cluster's.
 */
import { posix } from 'node:path';
import { parseAllDocuments, stringify } from 'yaml';
import {
  MANAGED_BY,
  WELL_KNOWN_KEYS,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import { getIn } from '../../repo/yamlObjects';
import { configMapGenerators } from '../../kustomize/configMapGenerators';
import { BOOTSTRAP_HEADER } from '../bootstrap/bootstrapFile';
import { YAML_OPTIONS } from '../canonical';
import type { StagedTree } from '../stagedTree';
import type { WorkloadCluster } from './managementCluster';

/**
 * What keeps the GPU ConfigMaps out of the management cluster: kustomize
 * drops an object carrying this annotation from the output of every build
 * (`IgnoreLocal`, kubernetes-sigs/kustomize api/internal/target/kusttarget.go,
 * since v4), the management root's included, while the GPU kustomization's
 * generators stay the one place requests and releases write the configs.
 * The management cluster has no GPU nodes, and no `gpu-operator` namespace
 * to apply them in: only the copy the ClusterResourceSet carries is applied.
 */
export const LOCAL_CONFIG_ANNOTATION = 'config.kubernetes.io/local-config';

/** The delivery's file name in the GPU folder. */
export const DELIVERY_FILE = 'workload-cluster.yaml';
/** The key of the delivery ConfigMap holding the manifests. */
export const DELIVERY_KEY = 'gpu-configs.yaml';
export const CLUSTER_RESOURCE_SET = 'ClusterResourceSet';
const ADDONS_GROUP = 'addons.cluster.x-k8s.io';

const COMMENT = [
  '# The GPU ConfigMaps this folder generates, for the workload cluster: its device plugin and MIG manager',
  '# read them there, not in the management cluster. Rewritten by every request and release.',
].join('\n');

/** `gpu/workload-cluster.yaml` beside the GPU kustomization. */
export function deliveryPath(gpuKustomizationPath: string): string {
  return posix.join(posix.dirname(gpuKustomizationPath), DELIVERY_FILE);
}

/** The name of the delivery's ClusterResourceSet and ConfigMap. */
export const deliveryName = (cluster: string) => `${cluster}-gpu-configs`;

/**
 * The ConfigMaps the kustomization at `kustomizationPath` generates that
 * `wanted` names, as kustomize builds them (file content under its key),
 * whether or not the build keeps them (`LOCAL_CONFIG_ANNOTATION`).
 */
export async function generatedConfigMaps(
  read: (path: string) => Promise<string | undefined>,
  kustomizationPath: string,
  wanted: (name: string, namespace: string) => boolean,
): Promise<Record<string, unknown>[]> {
  const text = await read(kustomizationPath);
  const kustomization = text ? parseAllDocuments(text)[0]?.toJS() : undefined;
  const out: Record<string, unknown>[] = [];
  for (const generator of configMapGenerators(
    kustomizationPath,
    kustomization,
  )) {
    const namespace = generator.namespace ?? 'default';
    if (!wanted(generator.name, namespace)) continue;
    const data: Record<string, string> = {};
    for (const [file, key] of [...generator.files].sort((a, b) =>
      a[1] < b[1] ? -1 : 1,
    )) {
      data[key] = (await read(file)) ?? '';
    }
    out.push({
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: { name: generator.name, namespace },
      data,
    });
  }
  return out;
}

/**
 * The ConfigMaps the GPU kustomization generates for the device plugin and
 * the MIG manager (the cluster profile's names).
 */
export function generatedGpuConfigMaps(
  staged: Pick<StagedTree, 'read'>,
  gpuKustomizationPath: string,
  cluster: ClusterProfile,
): Promise<Record<string, unknown>[]> {
  const wanted = [cluster.devicePluginConfigMap, cluster.migPartedConfigMap];
  return generatedConfigMaps(
    path => staged.read(path),
    gpuKustomizationPath,
    (name, namespace) =>
      wanted.some(r => r.name === name && r.namespace === namespace),
  );
}

/** The ClusterResourceSet of the workload cluster's GPU configs. */
export function deliveryResourceSet(
  workload: WorkloadCluster,
  carried: readonly { kind: string; name: string }[] = [],
) {
  return {
    apiVersion: `${ADDONS_GROUP}/${workload.version}`,
    kind: CLUSTER_RESOURCE_SET,
    metadata: {
      name: deliveryName(workload.name),
      namespace: workload.namespace,
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
    },
    spec: {
      clusterSelector: { matchLabels: workload.labels },
      resources: [
        { kind: 'ConfigMap', name: deliveryName(workload.name) },
        ...carried,
      ],
      // ApplyOnce would never carry a config a later request adds.
      strategy: 'Reconcile',
    },
  };
}

/** The delivery file: the ClusterResourceSet, then the ConfigMap of manifests. */
export function renderDelivery(
  resourceSet: Record<string, unknown>,
  configMaps: Record<string, unknown>[],
): string {
  const name = String(getIn(resourceSet, 'metadata', 'name'));
  const holder = {
    apiVersion: 'v1',
    kind: 'ConfigMap',
    metadata: {
      name,
      namespace: getIn(resourceSet, 'metadata', 'namespace'),
      labels: { [WELL_KNOWN_KEYS.managedBy]: MANAGED_BY },
    },
    data: {
      [DELIVERY_KEY]: configMaps
        .map(c => stringify(c, YAML_OPTIONS))
        .join('---\n'),
    },
  };
  return `${BOOTSTRAP_HEADER}${COMMENT}\n${[resourceSet, holder]
    .map(o => stringify(o, YAML_OPTIONS))
    .join('---\n')}`;
}

/**
 * Rewrites the GPU folder's delivery file, when there is one, from the
 * ConfigMaps the GPU kustomization now generates (a request's and a
 * release's last step on the configs).
 */
export async function refreshGpuConfigsDelivery(
  staged: StagedTree,
  gpuKustomizationPath: string,
  cluster: ClusterProfile,
): Promise<void> {
  const path = deliveryPath(gpuKustomizationPath);
  const text = await staged.read(path);
  if (text === undefined) return;
  const resourceSet = parseAllDocuments(text)
    .map(d => d.toJS())
    .find(o => getIn(o, 'kind') === CLUSTER_RESOURCE_SET);
  if (!resourceSet) return;
  const content = renderDelivery(
    resourceSet,
    await generatedGpuConfigMaps(staged, gpuKustomizationPath, cluster),
  );
  if (content !== text) await staged.write(path, content);
}

/** True for the delivery's ConfigMap of manifests: it changes with the GPU ConfigMaps it carries. */
export function isGpuConfigsDelivery(object: unknown): boolean {
  return (
    getIn(object, 'kind') === 'ConfigMap' &&
    getIn(object, 'metadata', 'labels', WELL_KNOWN_KEYS.managedBy) ===
      MANAGED_BY &&
    typeof getIn(object, 'data', DELIVERY_KEY) === 'string'
  );
}
