/**
 * What the product set up and nothing uses any more: a managed pool whose
 * ledger names no request and no workload, a ledger entry for a request that
 * is gone (the pool's limit still counts it), a device-plugin config no
 * NodePool selects. Each finding says which files to change. Hand-written
 * pools (no `app.kubernetes.io/managed-by` of ours) are never findings: their
 * owners decide what they are for. mig-parted entries are not judged: the
 * product names its entries as NVIDIA's stock config does (`all-1g.10gb`),
 * and teams keep that config's entries for nodes they label by hand.
 */
import {
  DEFAULT_DEVICE_PLUGIN_CONFIG,
  MANAGED_BY,
  WELL_KNOWN_KEYS,
  parseLedger,
} from '@gpu-gitops/plugin-gpu-common';
import { compileRepoLayout } from '../layout/compileRepoLayout';
import type { ResolvedRepoLayout } from '../layout/layout';
import { findOurLabel, POOL_LABEL_SUFFIXES } from '../repo/poolLabels';
import { asKubernetesObject, getIn, isPlainObject } from '../repo/yamlObjects';
import type { GpuWorkload } from './builtWorkloads';
import type { Finding } from './findings';
import type { SourceTree } from './sourceTree';
import {
  poolNodeLabels,
  POOL_OBJECT_KINDS,
} from '../repo/machineDeploymentPools';

interface SourceNodePool {
  name: string;
  file: string;
  cluster?: string;
  managed: boolean;
  /** `ns/name` entries of its request ledger, when it has one. */
  ledger?: string[];
  devicePluginConfig?: string;
}

function stringRecord(value: unknown): Record<string, string> {
  if (!isPlainObject(value)) return {};
  return Object.fromEntries(
    Object.entries(value).filter(
      (entry): entry is [string, string] => typeof entry[1] === 'string',
    ),
  );
}

function sourceNodePools(
  source: SourceTree,
  clusterOf: (file: string) => string | undefined,
): SourceNodePool[] {
  const pools: SourceNodePool[] = [];
  for (const doc of source.docs) {
    const obj = asKubernetesObject(doc.value);
    if (!obj || !POOL_OBJECT_KINDS.includes(obj.kind)) continue;
    const labels = stringRecord(getIn(obj, 'metadata', 'labels'));
    // A MachineDeployment's node labels are in its KubeadmConfigTemplate,
    // which the pool file holds beside it.
    const nodeLabels = poolNodeLabels(
      obj,
      source.docs.filter(d => d.path === doc.path).map(d => d.value),
    );
    const ledgerText = findOurLabel(
      stringRecord(getIn(obj, 'metadata', 'annotations')),
      POOL_LABEL_SUFFIXES.requests,
    );
    pools.push({
      name: obj.metadata.name,
      file: doc.path,
      cluster: clusterOf(doc.path),
      managed: labels[WELL_KNOWN_KEYS.managedBy] === MANAGED_BY,
      ledger: parseLedger(ledgerText)?.map(entry => entry.request),
      devicePluginConfig: nodeLabels[WELL_KNOWN_KEYS.devicePluginConfig],
    });
  }
  return pools;
}

/** `ns/name` of every stored request. */
function requestIds(
  source: SourceTree,
  layout: ReturnType<typeof compileRepoLayout>,
): Set<string> {
  const ids = new Set<string>();
  for (const file of source.files) {
    const place = layout.place(file);
    if (place?.entry === 'request') ids.add(`${place.namespace}/${place.name}`);
  }
  return ids;
}

/** `ns/name` of the GPU workloads each pool's pods ask for. */
function workloadsByPool(workloads: GpuWorkload[]): Map<string, Set<string>> {
  const byPool = new Map<string, Set<string>>();
  for (const workload of workloads) {
    if (!workload.pool) continue;
    const [namespace, , name] = workload.id.split('/');
    const ids = byPool.get(workload.pool) ?? new Set<string>();
    ids.add(`${namespace}/${name}`);
    byPool.set(workload.pool, ids);
  }
  return byPool;
}

function checkPools(
  pools: SourceNodePool[],
  requests: Set<string>,
  workloads: Map<string, Set<string>>,
  findings: Finding[],
) {
  for (const pool of pools.filter(p => p.managed)) {
    const onPool = workloads.get(pool.name) ?? new Set<string>();
    const entries = pool.ledger ?? [];
    const gone = entries.filter(id => !requests.has(id) && !onPool.has(id));
    const object = `NodePool/${pool.name}`;
    if (gone.length === entries.length && onPool.size === 0) {
      findings.push({
        file: pool.file,
        object,
        rule: 'pool-serves-no-request',
        message:
          `no request and no workload uses this pool${
            gone.length
              ? ` (its ledger names ${gone.join(', ')}, which are gone)`
              : ''
          }: delete ${pool.file} (the NodePool and its NodeOverlays) and its entry in ` +
          `the cluster's GPU kustomization`,
      });
      continue;
    }
    for (const id of gone) {
      findings.push({
        file: pool.file,
        object,
        rule: 'ledger-names-no-request',
        message:
          `its ledger names ${id}, which has no request record and no workload on the pool: ` +
          `its limits still count that capacity; remove the entry from the ledger annotation ` +
          `(the limit follows the ledger)`,
      });
    }
  }
}

function checkConfigs(
  source: SourceTree,
  layout: ReturnType<typeof compileRepoLayout>,
  pools: SourceNodePool[],
  findings: Finding[],
) {
  for (const cluster of layout.clusters) {
    const clusterPools = pools.filter(p => p.cluster === cluster);
    const selected = new Set(clusterPools.map(p => p.devicePluginConfig));
    for (const file of source.files) {
      const config = layout.devicePluginConfigName(cluster, file);
      if (
        config === undefined ||
        config === DEFAULT_DEVICE_PLUGIN_CONFIG ||
        selected.has(config)
      ) {
        continue;
      }
      findings.push({
        file,
        object: config,
        rule: 'device-plugin-config-unused',
        message: `no NodePool of cluster ${cluster} selects device-plugin config "${config}" (label ${WELL_KNOWN_KEYS.devicePluginConfig}): delete ${file} and its entry in the cluster's GPU kustomization`,
      });
    }
  }
}

/** Findings for what the product manages and nothing uses. */
export function checkOrphans(
  source: SourceTree,
  resolved: ResolvedRepoLayout,
  clusters: string[],
  workloads: GpuWorkload[],
  findings: Finding[],
) {
  const layout = compileRepoLayout(resolved, clusters);
  const clusterOf = (file: string) => {
    const place = layout.place(file);
    return place && 'cluster' in place ? place.cluster : undefined;
  };
  const pools = sourceNodePools(source, clusterOf);
  checkPools(
    pools,
    requestIds(source, layout),
    workloadsByPool(workloads),
    findings,
  );
  checkConfigs(source, layout, pools, findings);
}
