/**
 * Every Helm release of Karpenter the repository declares for a cluster, in
 * any file: kustomize `helmCharts` entries, Flux HelmReleases and Argo CD
 * Applications (one reader each), with what each sets the NodeOverlay gate
 * to. A file inside another cluster's folder (`clusterOwningPath`) is that
 * cluster's and left out; one outside every cluster's folder may install
 * this cluster's Karpenter, so it counts.
 */
import { compareStrings } from '@gpu-gitops/plugin-gpu-common';
import { clusterOwningPath, type LayoutInput } from '../../../layout/layout';
import { isKustomizationFile } from '../../../kustomize/roots';
import { readFiles } from '../../../repo/readFiles';
import type { RepoTree } from '../../../repo/tree';
import {
  asKubernetesObject,
  isYamlPath,
  parseYamlDocuments,
} from '../../../repo/yamlObjects';
import {
  argoApplicationReleases,
  isArgoApplication,
} from './argoApplicationReleases';
import {
  fluxHelmRelease,
  isFluxHelmRelease,
  isFluxOciRepository,
} from './fluxHelmRelease';
import type { FoundObject, KarpenterRelease } from './karpenterRelease';
import { kustomizeHelmChartReleases } from './kustomizeHelmChartReleases';
import { readNodeOverlayGate, type NodeOverlayGate } from './nodeOverlayGate';

/** A release, with what it sets the gate to. */
export interface FoundKarpenterRelease extends KarpenterRelease {
  gate: NodeOverlayGate;
}

/**
 * Only files that name the chart can declare it; a HelmRelease that takes
 * its chart through `chartRef` names the chart in the OCIRepository instead.
 */
const MAY_DECLARE_KARPENTER = /karpenter|chartRef/i;

export async function findKarpenterReleases(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: string,
): Promise<FoundKarpenterRelease[]> {
  const paths = (await tree.listFiles('')).filter(path => {
    if (!isYamlPath(path) && !isKustomizationFile(path)) return false;
    const owner = clusterOwningPath(layout, path);
    return owner === undefined || owner === cluster;
  });
  const texts = await readFiles(tree, paths);
  const releases: KarpenterRelease[] = [];
  const objects: FoundObject[] = [];
  for (const [i, file] of paths.entries()) {
    const text = texts[i];
    if (text === undefined || !MAY_DECLARE_KARPENTER.test(text)) continue;
    // A file that does not parse declares nothing the bootstrap can see
    // (`validate` and the GitOps tool report it).
    const { documents } = parseYamlDocuments(file, text);
    if (isKustomizationFile(file)) {
      releases.push(
        ...(await kustomizeHelmChartReleases(tree, file, documents[0]?.value)),
      );
      continue;
    }
    for (const document of documents) {
      const object = asKubernetesObject(document.value);
      if (object) objects.push({ file, object });
    }
  }
  const ociRepositories = objects.filter(o => isFluxOciRepository(o.object));
  for (const found of objects) {
    if (isFluxHelmRelease(found.object)) {
      const release = fluxHelmRelease(found, ociRepositories);
      if (release) releases.push(release);
    } else if (isArgoApplication(found.object)) {
      releases.push(...argoApplicationReleases(found));
    }
  }
  return releases
    .map(release => ({ ...release, gate: readNodeOverlayGate(release.layers) }))
    .sort(
      (a, b) =>
        compareStrings(a.file, b.file) ||
        compareStrings(a.declaredBy, b.declaredBy),
    );
}
