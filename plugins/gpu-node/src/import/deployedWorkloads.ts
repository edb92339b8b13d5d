/**
 * The workload manifests an import reads, as the cluster gets them: a base
 * that an overlay deploys runs in the overlay's namespace, with its
 * `replicas:` count and its patches (a node affinity, a toleration), so a
 * request record written from the base alone names a namespace where nothing
 * runs (its re-render and release then find no workload) and a wrong count.
 */
import { isWorkloadKind } from '@gpu-gitops/plugin-gpu-common';
import type { BuiltObject } from '../kustomize';
import {
  buildKustomizationRoot,
  type BuildRootOptions,
} from '../kustomize/buildRoot';
import { isKustomizeBuildError } from '../kustomize/errors';
import { readKustomizationGraph } from '../kustomize/roots';
import type { RepoTree } from '../repo/tree';
import { asKubernetesObject, type ParsedDocument } from '../repo/yamlObjects';
import { readKustomizations } from '../workloads/kustomizations';
import { placementsOf } from '../workloads/locate';

/**
 * Each workload document replaced by the object its kustomization roots
 * build from it (one per root that deploys it; the file's path kept, so
 * findings and records still name the team's file). A manifest no
 * kustomization lists stays as written; one whose root does not build too
 * (the import's verification names that root).
 */
export async function deployedWorkloadDocuments(
  tree: RepoTree,
  dir: string,
  docs: ParsedDocument[],
  kustomize?: BuildRootOptions,
): Promise<ParsedDocument[]> {
  const index = await readKustomizations(tree);
  const graph = await readKustomizationGraph(tree);
  const builds = new Map<string, Promise<BuiltObject[] | undefined>>();
  const built = (root: string) => {
    if (!builds.has(root)) {
      builds.set(
        root,
        buildKustomizationRoot(dir, graph, root, kustomize).then(
          result => result.objects,
          error => {
            if (isKustomizeBuildError(error)) return undefined;
            throw error;
          },
        ),
      );
    }
    return builds.get(root)!;
  };
  const out: ParsedDocument[] = [];
  for (const doc of docs) {
    const object = asKubernetesObject(doc.value);
    const placements =
      object && isWorkloadKind(object.kind)
        ? placementsOf(index, {
            file: doc.path,
            documentIndex: doc.index,
            object,
          }).filter(p => p.chain.length > 0)
        : [];
    if (!object || placements.length === 0) {
      out.push(doc);
      continue;
    }
    for (const placement of placements) {
      const objects = await built(placement.chain[0]);
      const deployed = objects?.find(
        o =>
          o.kind === object.kind &&
          o.metadata.name === object.metadata.name &&
          (placement.namespace === undefined ||
            o.metadata.namespace === placement.namespace),
      );
      out.push(deployed ? { ...doc, value: deployed } : doc);
    }
  }
  return out;
}
