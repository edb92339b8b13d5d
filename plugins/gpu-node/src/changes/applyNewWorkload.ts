/**
 * A new workload's folder (`apps/<namespace>/<component>`): the Deployment
 * (+ ResourceClaimTemplate for DRA) and the folder's kustomization.
 *
 * The product never takes the place of a workload people wrote: a target
 * file that exists and is not this request's, or a Deployment (or other
 * workload) of the same name in the same namespace anywhere in the
 * repository, is refused, naming the file. Re-rendering its own files keeps
 * everything a person added (ports, requests, env, comments): only the
 * fields the request owns change.
 */
import { posix } from 'path';
import {
  buildWorkloadPatch,
  GpuInputError,
  strategicMerge,
  viewWorkload,
  WORKLOAD_KINDS,
  type ClusterProfile,
  type KubernetesObject,
  type ManifestSet,
  type Plan,
} from '@gpu-gitops/plugin-gpu-common';
import { workloadDirPath, type ResolvedRepoLayout } from '../layout/layout';
import type { RepoTree } from '../repo/tree';
import { locateObjectsNamed } from '../workloads/locate';
import { deepEqual, toYaml } from './canonical';
import { conflictError } from './conflict';
import { openKustomization } from '../kustomize/editKustomization';
import { addResource } from '../kustomize/editResources';
import { describeObject, isManagedObject, isOwnedByRequest } from './ownership';
import type { StagedTree } from './stagedTree';
import { syncNode, YamlFile } from './yamlFile';

function fileNameFor(kind: string): string {
  return `${kind.toLowerCase()}.yaml`;
}

const isYaml = (path: string) => /\.ya?ml$/.test(path);

/**
 * Refuses when the request's workload name is already taken in its namespace
 * by a workload the product does not manage for this request.
 */
async function checkNameIsFree(
  tree: RepoTree,
  plan: Plan,
  cluster: ClusterProfile,
): Promise<void> {
  const { name, namespace } = plan.request.metadata;
  const id = `${namespace}/${name}`;
  const { placements } = await locateObjectsNamed(tree, name);
  const taken = placements.find(
    p =>
      (WORKLOAD_KINDS as readonly string[]).includes(p.found.object.kind) &&
      p.found.object.metadata.name === name &&
      (p.namespace === undefined || p.namespace === namespace) &&
      !isOwnedByRequest(p.found.object, id, cluster.labelDomain),
  );
  if (!taken) return;
  throw new GpuInputError([
    {
      path: 'metadata.name',
      rule: 'name-taken',
      message: `${taken.found.file} already holds ${describeObject(taken.found.object)}, which the GPU self-service does not manage; it is never overwritten. To give it GPUs, request them for the existing workload (spec.workload.existing: { kind: ${taken.found.object.kind}, name: ${name} }); or choose another name.`,
    },
  ]);
}

/** Re-renders our own workload file: only the fields the request owns change. */
function rerenderOwn(
  file: YamlFile,
  objects: KubernetesObject[],
  plan: Plan,
  cluster: ClusterProfile,
): void {
  for (const wanted of objects) {
    const doc = file.findObject(wanted.kind, wanted.metadata.name);
    if (!doc) {
      file.append(wanted);
      continue;
    }
    const current = doc.toJS() as KubernetesObject;
    let next: unknown = wanted;
    if (wanted.kind === 'Deployment') {
      // The Deployment people may have extended: apply the request's part.
      const patch = buildWorkloadPatch(plan, cluster, {
        kind: 'Deployment',
        name: wanted.metadata.name,
        container: plan.request.metadata.name,
        current: viewWorkload('Deployment', current),
        image: plan.request.spec.workload.image,
      });
      next = strategicMerge(current, patch);
    }
    if (!deepEqual(current, next)) {
      syncNode(doc, [], JSON.parse(JSON.stringify(next)));
      file.modified = true;
    }
  }
}

/**
 * Writes the new workload's folder. Returns the kustomization path when this
 * change creates it (its parent must then list the folder).
 */
export async function applyNewWorkload(
  staged: StagedTree,
  layout: ResolvedRepoLayout,
  plan: Plan,
  manifests: ManifestSet,
  cluster: ClusterProfile,
): Promise<string | undefined> {
  const { namespace, component } = manifests.workload;
  const id = `${namespace}/${plan.request.metadata.name}`;
  await checkNameIsFree(staged.base, plan, cluster);
  const dir = workloadDirPath(layout, namespace, component);
  const files = new Map<string, KubernetesObject[]>();
  for (const obj of manifests.workload.objects) {
    const file = posix.join(dir, fileNameFor(obj.kind));
    files.set(file, [...(files.get(file) ?? []), obj]);
  }
  for (const [path, objects] of [...files.entries()].sort(([a], [b]) =>
    a < b ? -1 : 1,
  )) {
    const text = await staged.read(path);
    if (text === undefined || text.trim() === '') {
      await staged.write(
        path,
        objects
          .map((o, i) => (i > 0 ? `---\n${toYaml(o)}` : toYaml(o)))
          .join(''),
      );
      continue;
    }
    const file = YamlFile.parse(path, text);
    const foreign = file
      .values()
      .filter(v => v !== null)
      .find(
        v =>
          !isOwnedByRequest(v, id, cluster.labelDomain) &&
          !(
            isManagedObject(v) &&
            objects.some(
              o =>
                o.kind === (v as KubernetesObject).kind &&
                o.metadata.name === (v as KubernetesObject).metadata?.name,
            )
          ),
      );
    if (foreign !== undefined) {
      throw conflictError(
        path,
        `${path} already exists and holds ${describeObject(foreign)}, which the GPU self-service did not write for ${id}; it is never overwritten`,
      );
    }
    rerenderOwn(file, objects, plan, cluster);
    const content = file.newContent();
    if (content !== undefined) await staged.write(path, content);
  }

  const kustomizationPath = posix.join(dir, 'kustomization.yaml');
  const existingText = await staged.read(kustomizationPath);
  const kustomization = openKustomization(kustomizationPath, existingText);
  if (existingText === undefined) {
    // A folder Argo CD applied as plain YAML keeps every file it had.
    for (const path of await staged.base.listFiles(dir)) {
      if (isYaml(path) && posix.dirname(path) === dir && !files.has(path)) {
        addResource(kustomization, posix.basename(path));
      }
    }
  }
  for (const path of [...files.keys()].sort()) {
    addResource(kustomization, posix.basename(path));
  }
  const content = kustomization.newContent();
  if (content !== undefined) await staged.write(kustomizationPath, content);
  return kustomization.exists ? undefined : kustomizationPath;
}
