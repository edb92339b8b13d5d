import { posix } from 'node:path';
import {
  type GpuRequest,
  GpuInputError,
  type ClusterProfile,
  type KueuePlan,
  type ManifestSet,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import {
  clusterKustomizationPath,
  devicePluginConfigPath,
  migConfigPath,
  requestPath,
  resolveLayout,
  type LayoutInput,
  type ResolvedRepoLayout,
} from '../layout/layout';
import type { RepoTree } from '../repo/tree';
import { sortKeysDeep, toYaml } from './canonical';
import { applyMigConfig, applyNamedFile } from './applyConfigs';
import {
  applyExistingWorkload,
  type ExistingWorkloadChange,
} from './applyExistingWorkload';
import { applyNewWorkload } from './applyNewWorkload';
import { applyKueue } from './kueue/applyKueue';
import { clusterNotBootstrapped } from './clusterSetup';
import { applyLeftPools, applyPool } from './applyPool';
import { addConfigMapFile } from '../kustomize/editGenerators';
import { openKustomization, relativeTo } from '../kustomize/editKustomization';
import { listInParent, listResource } from './listing';
import { StagedTree } from './stagedTree';
import { refreshGpuConfigsDelivery } from './workloadCluster/gpuConfigsDelivery';
import type { ChangeSet } from './types';
import { syncNode, YamlFile } from './yamlFile';

/** @public */
export interface ApplyPlanInput {
  plan: Plan;
  manifests: ManifestSet;
  /** Path templates; the default layout when omitted. */
  layout?: LayoutInput;
  cluster: ClusterProfile;
  /** The existing workload a patch request changes (see `prepareExistingWorkload`). */
  existing?: ExistingWorkloadChange;
  /** The cluster's Kueue queues after the change (profile `kueue: true`). */
  kueue?: KueuePlan;
}

/** True when `path` lies in the folder of the kustomization at `kustomizationPath`. */
function isInFolderOf(kustomizationPath: string, path: string): boolean {
  const folder = posix.dirname(kustomizationPath);
  return folder === '.' || path.startsWith(`${folder}/`);
}

/** Key of the mig-parted file inside its ConfigMap (what the MIG manager reads). */
export const MIG_CONFIG_KEY = 'config.yaml';

/**
 * The merge engine: computes exactly the file edits that put a plan into a
 * GitOps repository tree. Existing files are edited in place (comments and
 * unrelated content survive); the result is idempotent and deterministic.
 * Never overwrites what it does not manage: a conflict is a GpuInputError
 * naming the file. Nothing is written to `tree`.
 *
 * @public
 */
export async function applyPlan(
  tree: RepoTree,
  input: ApplyPlanInput,
): Promise<ChangeSet> {
  const { plan, manifests, cluster } = input;
  const layout = resolveLayout(input.layout);
  if (plan.cluster !== cluster.name) {
    throw new GpuInputError([
      {
        path: 'cluster',
        rule: 'cluster-mismatch',
        message: `the plan targets cluster "${plan.cluster}" but the cluster profile is "${cluster.name}"`,
      },
    ]);
  }
  const staged = new StagedTree(tree);
  const kustomizationPath = clusterKustomizationPath(layout, cluster.name);
  const kustomizationText = await staged.read(kustomizationPath);
  if (kustomizationText === undefined) {
    throw clusterNotBootstrapped(cluster.name, kustomizationPath);
  }
  const kustomization = openKustomization(kustomizationPath, kustomizationText);

  // Static clusters (no Karpenter) get no pool objects, hence no pool file.
  if (manifests.pool.objects.length > 0) {
    const pool = await applyPool(
      staged,
      layout,
      plan,
      manifests.pool.objects,
      cluster,
    );
    // A pool file elsewhere in the cluster's folder (one the import adopted
    // where it lives) is deployed by the kustomization that lists it now:
    // listing it in the GPU folder too would build the pool twice.
    if (isInFolderOf(kustomizationPath, pool.path)) {
      await listResource(staged, kustomization, pool.path);
    }
  }
  await applyLeftPools(staged, plan.leftPools, cluster);

  await applySharingConfigs(staged, layout, kustomization, manifests, cluster);
  if (input.kueue) await applyKueue(staged, kustomization, input.kueue);
  const content = kustomization.newContent();
  if (content !== undefined) await staged.write(kustomizationPath, content);
  await refreshGpuConfigsDelivery(staged, kustomizationPath, cluster);

  if (manifests.workload.mode === 'patch') {
    if (!input.existing) {
      throw new Error(
        'applyPlan: a patch request needs the existing workload (prepareExistingWorkload)',
      );
    }
    await applyExistingWorkload(staged, manifests, input.existing, cluster);
  } else {
    const created = await applyNewWorkload(
      staged,
      layout,
      plan,
      manifests,
      cluster,
    );
    // A new folder is only deployed when its parent kustomization lists it.
    if (created) await listInParent(staged, created);
  }

  await applyRequest(staged, layout, plan);
  return staged.toChangeSet();
}

/** The device-plugin config file and mig-parted entry of a change, each listed in the GPU kustomization's generators. */
async function applySharingConfigs(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  kustomization: YamlFile,
  manifests: ApplyPlanInput['manifests'],
  cluster: ClusterProfile,
): Promise<void> {
  if (manifests.devicePluginConfig) {
    const { name, config } = manifests.devicePluginConfig;
    const path = devicePluginConfigPath(layout, cluster.name, name);
    await applyNamedFile(
      staged,
      path,
      config,
      `device-plugin config "${name}"`,
    );
    addConfigMapFile(
      kustomization,
      cluster.devicePluginConfigMap,
      name,
      relativeTo(kustomization.path, path),
    );
  }
  if (manifests.migConfig) {
    const path = migConfigPath(layout, cluster.name);
    await applyMigConfig(
      staged,
      path,
      manifests.migConfig.name,
      manifests.migConfig.entries,
    );
    addConfigMapFile(
      kustomization,
      cluster.migPartedConfigMap,
      MIG_CONFIG_KEY,
      relativeTo(kustomization.path, path),
    );
  }
}

/**
 * The request itself, canonical (sorted keys below the top level, its
 * cluster always named), for review, audit and re-rendering on a moved base.
 */
export function canonicalRequestYaml(plan: Plan): string {
  return storedRequestYaml(storedRequest(plan));
}

/**
 * A request record as the product stores it (`requests/<ns>/<name>.yaml`):
 * keys sorted, the cluster in `spec.cluster`. The import writes its records
 * with it too.
 */
export function storedRequestYaml(request: GpuRequest): string {
  const { apiVersion, kind, metadata, spec } = request;
  return toYaml({
    apiVersion,
    kind,
    metadata: sortKeysDeep(metadata),
    spec: sortKeysDeep(spec),
  });
}

function storedRequest(plan: Plan) {
  return {
    ...plan.request,
    spec: { ...plan.request.spec, cluster: plan.cluster },
  };
}

async function applyRequest(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  plan: Plan,
): Promise<void> {
  const { namespace, name } = plan.request.metadata;
  const path = requestPath(layout, namespace, name);
  const text = await staged.read(path);
  if (text === undefined || text.trim() === '') {
    await staged.write(path, canonicalRequestYaml(plan));
    return;
  }
  const file = YamlFile.parse(path, text);
  const doc = file.firstMap();
  const value = JSON.parse(JSON.stringify(storedRequest(plan)));
  if (syncNode(doc, [], value)) file.modified = true;
  const updated = file.newContent();
  if (updated !== undefined) await staged.write(path, updated);
}
