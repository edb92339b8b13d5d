/**
 * An existing workload's GPU change: a patch file listed in the
 * kustomization that deploys it to this cluster, or (plain manifests no
 * kustomization includes) the same patch applied to the manifest in place.
 * A DRA claim template goes beside it.
 */
import { posix } from 'path';
import type {
  ClusterProfile,
  KubernetesObject,
  ManifestSet,
} from '@gpu-gitops/plugin-gpu-common';
import type { OwnPatch } from '../workloads/currentWorkload';
import type { ExistingWorkloadLocation } from '../workloads/resolveExistingWorkload';
import { toYaml } from './canonical';
import { openKustomization } from '../kustomize/editKustomization';
import { addPatch } from '../kustomize/editPatches';
import { setReplicasCount } from '../kustomize/editReplicas';
import { addResource } from '../kustomize/editResources';
import { isManagedObject } from './ownership';
import { patchInPlace } from './patchInPlace';
import { withReplicasEntryRecord } from './replicasEntryRecord';
import type { StagedTree } from './stagedTree';
import { YamlFile } from './yamlFile';

/**
 *  The existing workload as the repository holds it (see `workloads/`).
 *
 * @public
 */
export interface ExistingWorkloadChange {
  location: ExistingWorkloadLocation;
  /** This request's patch file from an earlier run, if any. */
  ownPatch?: OwnPatch;
  /**
   * A new count for the kustomization `replicas:` entry that scales the
   * workload, and the team's count before the request (for its release).
   */
  replicasCount?: { file: string; count: number; before: number };
}

/** A file name in `folder` that no file has yet. */
async function freePatchPath(
  staged: StagedTree,
  folder: string,
  name: string,
): Promise<string> {
  for (let n = 1; ; n++) {
    const path = posix.join(
      folder,
      `gpu-patch-${name}${n === 1 ? '' : `-${n}`}.yaml`,
    );
    if ((await staged.read(path)) === undefined) return path;
  }
}

async function claimTemplatePath(
  staged: StagedTree,
  folder: string,
  template: KubernetesObject,
): Promise<string> {
  for (let n = 1; ; n++) {
    const path = posix.join(
      folder,
      `${template.metadata.name}${n === 1 ? '' : `-${n}`}.resourceclaimtemplate.yaml`,
    );
    const text = await staged.read(path);
    if (text === undefined) return path;
    if (
      YamlFile.parse(path, text)
        .values()
        .every(v => v === null || isManagedObject(v))
    ) {
      return path;
    }
  }
}

export async function applyExistingWorkload(
  staged: StagedTree,
  manifests: ManifestSet,
  change: ExistingWorkloadChange,
  cluster: Pick<
    ClusterProfile,
    'labelDomain' | 'gpuTaintKey' | 'provider' | 'clusterApi'
  >,
): Promise<void> {
  const { location, ownPatch } = change;
  const patch = manifests.workload.objects.find(
    o => o.kind === location.kind && o.metadata.name === location.name,
  )!;
  const claimTemplates = manifests.workload.objects.filter(
    o => o.kind === 'ResourceClaimTemplate',
  );

  if (location.apply.mode === 'in-place') {
    const file = YamlFile.parse(
      location.file,
      await staged.read(location.file),
    );
    const doc = file.docs[location.documentIndex];
    const requestId = `${manifests.workload.namespace}/${manifests.workload.component}`;
    if (patchInPlace(doc, patch, requestId, cluster)) file.modified = true;
    const content = file.newContent();
    if (content !== undefined) await staged.write(location.file, content);
    const folder = posix.dirname(location.file);
    for (const template of claimTemplates) {
      await staged.write(
        await claimTemplatePath(staged, folder, template),
        toYaml(template),
      );
    }
    return;
  }

  const folder = location.apply.patchFolder;
  const kustomizationPath = location.apply.kustomization;
  const kustomization = openKustomization(
    kustomizationPath,
    await staged.read(kustomizationPath),
  );
  const patchPath =
    ownPatch?.file ?? (await freePatchPath(staged, folder, location.name));
  const replicasCount = change.replicasCount;
  await staged.write(
    patchPath,
    toYaml(
      replicasCount
        ? withReplicasEntryRecord(patch, cluster.labelDomain, {
            file: replicasCount.file,
            name: location.name,
            count: replicasCount.before,
          })
        : patch,
    ),
  );
  addPatch(kustomization, posix.relative(folder, patchPath));
  for (const template of claimTemplates) {
    const path = await claimTemplatePath(staged, folder, template);
    await staged.write(path, toYaml(template));
    addResource(kustomization, posix.relative(folder, path));
  }
  const content = kustomization.newContent();
  if (content !== undefined) await staged.write(kustomizationPath, content);

  if (change.replicasCount) {
    const { file: path, count } = change.replicasCount;
    const scaling = YamlFile.parse(path, await staged.read(path));
    setReplicasCount(scaling, location.name, count);
    const scaled = scaling.newContent();
    if (scaled !== undefined) await staged.write(path, scaled);
  }
}
