/**
 * The existing workload as it is deployed before this request: what
 * `kustomize build` of its overlay yields (so replicas or tolerations an
 * overlay sets are seen), without an earlier version of this request's own
 * patch; the manifest itself for plain manifests.
 */
import { promises as fs } from 'node:fs';
import os from 'node:os';
import path from 'node:path';
import {
  GpuInputError,
  viewWorkload,
  type ClusterProfile,
  type GpuRequest,
  type WorkloadView,
} from '@gpu-gitops/plugin-gpu-common';
import { beforeRequest } from '../changes/patchInPlace';
import { removePatch } from '../kustomize/editPatches';
import { YamlFile } from '../changes/yamlFile';
import { kustomizeBuild, type KustomizeBuildOptions } from '../kustomize/build';
import { isKustomizeBuildError } from '../kustomize/errors';
import type { RepoTree } from '../repo/tree';
import { getIn, parseYamlDocuments } from '../repo/yamlObjects';
import { readKustomizations } from './kustomizations';
import type { ExistingWorkloadLocation } from './resolveExistingWorkload';

/**
 *  A patch file of this request in the patch folder's kustomization.
 *
 * @public
 */
export interface OwnPatch {
  /** Repository path of the patch file. */
  file: string;
  /** The kustomization that lists it. */
  kustomization: string;
}

/** Files listed in `folder`'s kustomization patches that hold this request's patch of the workload. */
export async function findOwnPatch(
  tree: RepoTree,
  location: ExistingWorkloadLocation,
  request: GpuRequest,
  labelDomain: string,
): Promise<OwnPatch | undefined> {
  if (location.apply.mode !== 'patch') return undefined;
  const index = await readKustomizations(tree);
  const kustomization = index.byFolder.get(location.apply.patchFolder);
  if (!kustomization) return undefined;
  const id = `${request.metadata.namespace}/${request.metadata.name}`;
  for (const file of kustomization.patches) {
    const text = await tree.readFile(file);
    if (text === undefined) continue;
    for (const doc of parseYamlDocuments(file, text).documents) {
      const value = doc.value;
      if (
        getIn(value, 'kind') === location.kind &&
        getIn(value, 'metadata', 'name') === location.name &&
        getIn(value, 'metadata', 'annotations', `${labelDomain}/request`) === id
      ) {
        return { file, kustomization: kustomization.file };
      }
    }
  }
  return undefined;
}

/** Copies the checkout (without `.git`) so a build can leave a patch out. */
async function scratchCopy(dir: string): Promise<string> {
  const scratch = await fs.mkdtemp(path.join(os.tmpdir(), 'gpu-gitops-build-'));
  await fs.cp(dir, scratch, {
    recursive: true,
    filter: source => path.basename(source) !== '.git',
  });
  return scratch;
}

/** The kustomization's text without its entries of `patchFile` (the one rule of `removePatch`). */
function withoutPatch(
  kustomizationText: string,
  kustomizationFile: string,
  patchFile: string,
): string {
  const file = YamlFile.parse(kustomizationFile, kustomizationText);
  removePatch(
    file,
    path.posix.relative(path.posix.dirname(kustomizationFile), patchFile),
  );
  return file.newContent() ?? kustomizationText;
}

function notBuilt(location: ExistingWorkloadLocation, detail: string): never {
  throw new GpuInputError([
    {
      path: 'spec.workload.existing.name',
      rule: 'workload-build',
      message: `${location.kind} "${location.name}": kustomize build of ${location.apply.mode === 'patch' ? location.apply.root : location.file} failed, so its current form cannot be read: ${detail}`,
    },
  ]);
}

/** A plain manifest as it was before this request (its earlier in-place patch undone). */
async function inPlaceBeforeRequest(
  tree: RepoTree,
  location: ExistingWorkloadLocation,
  request: GpuRequest,
  cluster: Pick<
    ClusterProfile,
    'labelDomain' | 'gpuTaintKey' | 'provider' | 'clusterApi'
  >,
): Promise<unknown> {
  const file = YamlFile.parse(
    location.file,
    await tree.readFile(location.file),
  );
  const doc = file.docs[location.documentIndex];
  if (!doc) return location.manifest;
  const id = `${request.metadata.namespace}/${request.metadata.name}`;
  return beforeRequest(doc, location.kind, id, cluster);
}

/** The workload `location` names in the build of its root at `buildDir`. */
async function builtWorkload(
  buildDir: string,
  location: ExistingWorkloadLocation & { apply: { mode: 'patch' } },
  kustomize: KustomizeBuildOptions | undefined,
): Promise<unknown> {
  let objects;
  try {
    objects = await kustomizeBuild(
      path.join(buildDir, ...location.apply.root.split('/')),
      kustomize,
    );
  } catch (error) {
    if (isKustomizeBuildError(error)) notBuilt(location, error.detail);
    throw error;
  }
  const built = objects.find(
    o =>
      o.kind === location.kind &&
      o.metadata.name === location.name &&
      (o.metadata.namespace === undefined ||
        o.metadata.namespace === location.namespace),
  );
  if (!built) {
    notBuilt(
      location,
      `its output has no ${location.kind} "${location.name}" in namespace "${location.namespace}" (a namePrefix or nameSuffix?)`,
    );
  }
  return built;
}

/**
 * The workload before this request (`view`: what a new patch is built
 * from), and as the repository holds it now (`merged`: with this request's
 * earlier patch, what a change's diff shows on its minus side — the "before"
 * a reviewer is told). `dir` is the checkout on disk that `tree` reads
 * (kustomize builds from disk).
 */
export async function readCurrentWorkload(options: {
  dir: string;
  tree: RepoTree;
  location: ExistingWorkloadLocation;
  request: GpuRequest;
  cluster: Pick<
    ClusterProfile,
    'labelDomain' | 'gpuTaintKey' | 'provider' | 'clusterApi'
  >;
  kustomize?: KustomizeBuildOptions;
}): Promise<{ view: WorkloadView; merged: WorkloadView; ownPatch?: OwnPatch }> {
  const { dir, tree, location, request, cluster } = options;
  const labelDomain = cluster.labelDomain;
  if (location.apply.mode === 'in-place') {
    const before = await inPlaceBeforeRequest(tree, location, request, cluster);
    return {
      view: viewWorkload(location.kind, before),
      merged: viewWorkload(location.kind, location.manifest),
    };
  }
  const patched = location as ExistingWorkloadLocation & {
    apply: { mode: 'patch' };
  };
  const ownPatch = await findOwnPatch(tree, location, request, labelDomain);
  const merged = viewWorkload(
    location.kind,
    await builtWorkload(dir, patched, options.kustomize),
  );
  if (!ownPatch) return { view: merged, merged };
  const scratch = await scratchCopy(dir);
  try {
    const file = path.join(scratch, ...ownPatch.kustomization.split('/'));
    await fs.writeFile(
      file,
      withoutPatch(
        await fs.readFile(file, 'utf8'),
        ownPatch.kustomization,
        ownPatch.file,
      ),
    );
    const view = viewWorkload(
      location.kind,
      await builtWorkload(scratch, patched, options.kustomize),
    );
    return { view, merged, ownPatch };
  } finally {
    await fs.rm(scratch, { recursive: true, force: true });
  }
}

/** The container that gets the GPU: one rule, shared with the backend's plan preview. */
export { chooseContainer } from '@gpu-gitops/plugin-gpu-common';
