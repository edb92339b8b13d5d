/**
 * The workload part of a release.
 *
 * - A new workload (the product wrote its folder): the objects it wrote for
 *   the request go, with their files and kustomization entries; a folder
 *   left with nothing loses its kustomization and its parent's entry.
 *   Anything a person added to the folder stays.
 * - An existing workload patched through a kustomization: the request's
 *   patch file (and DRA claim template) and their entries go. The workload
 *   file was never touched, so it stays byte for byte; a kustomization
 *   `replicas:` entry the request changed gets the team's count back (its
 *   record in the patch, `replicasEntryRecord.ts`).
 * - An existing plain manifest patched in place: the GPU fields the patch
 *   set go and what it replaced comes back (see `withoutGpuFields`).
 */
import { posix } from 'path';
import {
  gpuAnnotationKeys,
  resourceClaimTemplateName,
  WORKLOAD_KINDS,
  workloadShape,
  type ClusterProfile,
  type GpuRequest,
  type ReleasedPool,
} from '@gpu-gitops/plugin-gpu-common';
import { workloadDirPath, type ResolvedRepoLayout } from '../../layout/layout';
import type { RepoTree } from '../../repo/tree';
import { getIn } from '../../repo/yamlObjects';
import { readKustomizations } from '../../workloads/kustomizations';
import { unlistFromParent } from '../listing';
import { poolTaintsIn } from '../applyPool';
import { removePatch } from '../../kustomize/editPatches';
import { removeResource } from '../../kustomize/editResources';
import { isManagedObject, isOwnedByRequest } from '../ownership';
import type { StagedTree } from '../stagedTree';
import { YamlFile } from '../yamlFile';
import {
  recordedInPatchFile,
  restoreReplicasEntries,
  type ReplicasEntryBefore,
} from '../replicasEntryRecord';
import { withoutGpuFields } from './withoutGpuFields';

const isYaml = (path: string) => /\.ya?ml$/.test(path);

interface ReleaseContext {
  staged: StagedTree;
  request: GpuRequest;
  cluster: ClusterProfile;
  id: string;
  /** The pools the request held. */
  pools: readonly ReleasedPool[];
}

/**
 * What the product wrote for the request: objects with its request
 * annotation, and its DRA claim template (named after the request).
 */
function isReleased(ctx: ReleaseContext, value: unknown): boolean {
  if (isOwnedByRequest(value, ctx.id, ctx.cluster.labelDomain)) return true;
  return (
    getIn(value, 'kind') === 'ResourceClaimTemplate' &&
    isManagedObject(value) &&
    getIn(value, 'metadata', 'name') ===
      resourceClaimTemplateName(ctx.request.metadata.name)
  );
}

/** Removes the documents owned by the request; true when the file is gone with them. */
async function dropOwnedDocuments(
  ctx: ReleaseContext,
  path: string,
): Promise<boolean> {
  const text = await ctx.staged.read(path);
  if (text === undefined) return false;
  let file: YamlFile;
  try {
    file = YamlFile.parse(path, text);
  } catch {
    return false; // not ours: ours always parse
  }
  const owned = file.docs.filter(d => isReleased(ctx, d.toJS()));
  if (owned.length === 0) return false;
  for (const doc of owned) file.remove(doc);
  if (file.isEmpty) {
    await ctx.staged.remove(path);
    return true;
  }
  const content = file.newContent();
  if (content !== undefined) await ctx.staged.write(path, content);
  return false;
}

/** True when a kustomization says nothing beyond its header. */
function isBareKustomization(file: YamlFile): boolean {
  const value = file.firstMap().toJS() as Record<string, unknown>;
  return Object.keys(value).every(k => k === 'apiVersion' || k === 'kind');
}

async function releaseNewWorkload(
  ctx: ReleaseContext,
  layout: ResolvedRepoLayout,
): Promise<void> {
  const { namespace, name } = ctx.request.metadata;
  const dir = workloadDirPath(layout, namespace, name);
  const kustomizationPath = posix.join(dir, 'kustomization.yaml');
  const text = await ctx.staged.read(kustomizationPath);
  const kustomization =
    text === undefined ? undefined : YamlFile.parse(kustomizationPath, text);
  for (const path of await ctx.staged.list(dir)) {
    if (posix.dirname(path) !== dir || path === kustomizationPath) continue;
    if (!isYaml(path)) continue;
    if (await dropOwnedDocuments(ctx, path)) {
      if (kustomization) removeResource(kustomization, posix.basename(path));
    }
  }
  if (!kustomization) return;
  if (isBareKustomization(kustomization)) {
    await ctx.staged.remove(kustomizationPath);
    await unlistFromParent(ctx.staged, kustomizationPath);
    return;
  }
  const content = kustomization.newContent();
  if (content !== undefined) await ctx.staged.write(kustomizationPath, content);
}

async function releasePatches(
  ctx: ReleaseContext,
  tree: RepoTree,
): Promise<boolean> {
  let found = false;
  const entries: ReplicasEntryBefore[] = [];
  for (const info of (await readKustomizations(tree)).byFolder.values()) {
    const kustomization = YamlFile.parse(
      info.file,
      await ctx.staged.read(info.file),
    );
    for (const patch of info.patches) {
      const recorded = await recordedInPatchFile(
        path => ctx.staged.read(path),
        patch,
        ctx.cluster.labelDomain,
      );
      if (await dropOwnedDocuments(ctx, patch)) {
        entries.push(...recorded);
        found = true;
        removePatch(kustomization, posix.relative(info.folder, patch));
      }
    }
    for (const file of info.files) {
      if (!file.endsWith('.resourceclaimtemplate.yaml')) continue;
      if (await dropOwnedDocuments(ctx, file)) {
        removeResource(kustomization, posix.relative(info.folder, file));
      }
    }
    const content = kustomization.newContent();
    if (content !== undefined) await ctx.staged.write(info.file, content);
  }
  await restoreReplicasEntries(ctx.staged, entries);
  return found;
}

/**
 * The values of the GPU taint on the nodes of the pool a patched manifest
 * names, as the repository held them before the release (a removed pool's
 * file is gone from the staged tree): what a patch without a record tolerated.
 */
async function poolTaintValues(
  ctx: ReleaseContext,
  tree: RepoTree,
  manifest: unknown,
): Promise<string[]> {
  const shape = workloadShape(ctx.request.spec.workload.existing!.kind);
  const keys = gpuAnnotationKeys(ctx.cluster.labelDomain);
  const name = getIn(
    manifest,
    ...shape.podTemplate,
    'metadata',
    'annotations',
    keys.pool,
  );
  const pool = ctx.pools.find(p => p.name === name);
  const text = pool && (await tree.readFile(pool.path));
  if (!pool || text === undefined) return [];
  return poolTaintsIn(YamlFile.parse(pool.path, text), pool.name)
    .filter(t => t.key === ctx.cluster.gpuTaintKey && t.value !== undefined)
    .map(t => t.value!);
}

/** Plain manifests the request patched in place: the GPU fields go, the rest stays as it is. */
async function releaseInPlace(
  ctx: ReleaseContext,
  tree: RepoTree,
): Promise<void> {
  const existing = ctx.request.spec.workload.existing!;
  const keys = gpuAnnotationKeys(ctx.cluster.labelDomain);
  for (const path of await tree.listFiles('')) {
    if (!isYaml(path)) continue;
    const text = await ctx.staged.read(path);
    if (text === undefined || !text.includes(ctx.id)) continue;
    let file: YamlFile;
    try {
      file = YamlFile.parse(path, text);
    } catch {
      continue;
    }
    for (const doc of file.docs) {
      const value = doc.toJS();
      const kind = getIn(value, 'kind');
      if (
        kind !== existing.kind ||
        getIn(value, 'metadata', 'name') !== existing.name ||
        !(WORKLOAD_KINDS as readonly unknown[]).includes(kind)
      ) {
        continue;
      }
      const taintValues = await poolTaintValues(ctx, tree, doc.toJS());
      if (
        withoutGpuFields(
          doc,
          existing.kind,
          ctx.id,
          keys,
          ctx.cluster,
          taintValues,
        )
      ) {
        file.modified = true;
      }
    }
    const content = file.newContent();
    if (content !== undefined) await ctx.staged.write(path, content);
    // The in-place claim template beside it.
    const folder = posix.dirname(path);
    for (const sibling of await ctx.staged.list(folder)) {
      if (
        posix.dirname(sibling) === folder &&
        sibling.endsWith('.resourceclaimtemplate.yaml')
      ) {
        await dropOwnedDocuments(ctx, sibling);
      }
    }
  }
}

/** Takes the request's workload part out of the tree. */
export async function releaseWorkload(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  request: GpuRequest,
  cluster: ClusterProfile,
  pools: readonly ReleasedPool[],
): Promise<void> {
  const { namespace, name } = request.metadata;
  const ctx: ReleaseContext = {
    staged,
    request,
    cluster,
    id: `${namespace}/${name}`,
    pools,
  };
  if (!request.spec.workload.existing) {
    await releaseNewWorkload(ctx, layout);
    return;
  }
  // A patch through a kustomization, or else the manifest itself.
  if (!(await releasePatches(ctx, staged.base))) {
    await releaseInPlace(ctx, staged.base);
  }
}
