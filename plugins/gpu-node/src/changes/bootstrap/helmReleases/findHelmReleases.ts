/**
 * Every Helm release of one chart the repository declares for a cluster, in
 * any file: kustomize `helmCharts` entries, Flux HelmReleases, Argo CD
 * Applications and Cluster API add-on HelmChartProxies (one reader each),
 * and the GPU Operator's ClusterPolicy where its chart was rendered to plain
 * manifests. A file inside another cluster's folder
 * (`pathReachesCluster`) is that cluster's and left out; one outside every
 * cluster's folder may install this cluster's release, so it counts.
 */
import { compareStrings } from '@gpu-gitops/plugin-gpu-common';
import { pathReachesCluster, type LayoutInput } from '../../../layout/layout';
import {
  kustomizationValue,
  readKustomization,
  type Kustomization,
} from '../../../kustomize/kustomization';
import { isKustomizationFile } from '../../../kustomize/roots';
import { anyOfWords } from '../../../repo/anyOfWords';
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
  helmChartProxyRelease,
  isHelmChartProxy,
} from './clusterApiHelmChartProxy';
import {
  fluxHelmRelease,
  isFluxHelmRelease,
  isFluxOciRepository,
} from './fluxHelmRelease';
import {
  CLUSTER_POLICY_CHART,
  clusterPolicyRelease,
  isGpuOperatorClusterPolicy,
} from './gpuOperatorManifests';
import type { FoundObject, HelmRelease } from './helmRelease';
import { kustomizeHelmChartReleases } from './kustomizeHelmChartReleases';
import {
  LOCAL_CHART_APPLIER,
  localChartRelease,
  localCharts,
  type LocalChart,
} from './localChartReleases';
import type { RepositoryFile } from './valuesConfigMaps';

/**
 * Whether `path` may declare (or configure) a release installed on
 * `cluster`: a YAML or kustomization file in its folder or outside every
 * cluster's folder. The allocation index reads the stack through it too.
 *
 * @public
 */
export function isClusterReleaseFile(
  layout: LayoutInput,
  cluster: string,
  path: string,
): boolean {
  if (!isYamlPath(path) && !isKustomizationFile(path)) return false;
  return pathReachesCluster(layout, cluster, path);
}

/**
 * The files of the repository that belong to `cluster`, with their texts:
 * read once per bootstrap, searched for every chart.
 */
export async function clusterReleaseFiles(
  tree: RepoTree,
  layout: LayoutInput,
  cluster: string,
): Promise<RepositoryFile[]> {
  const paths = (await tree.listFiles('')).filter(path =>
    isClusterReleaseFile(layout, cluster, path),
  );
  const texts = await readFiles(tree, paths);
  return paths.flatMap((path, i) => {
    const text = texts[i];
    return text === undefined ? [] : [{ path, text }];
  });
}

/**
 * The objects and kustomizations of the files whose text matches `mention`
 * or may render a chart folder of the repository (which only its own
 * `Chart.yaml` names). A file that does not parse declares nothing the
 * bootstrap can see (`validate` and the GitOps tool report it).
 */
function declarations(files: RepositoryFile[], mention: RegExp) {
  const objects: FoundObject[] = [];
  const kustomizations: Kustomization[] = [];
  for (const { path, text } of files) {
    if (!mention.test(text) && !LOCAL_CHART_APPLIER.test(text)) continue;
    if (isKustomizationFile(path)) {
      kustomizations.push(
        readKustomization(path, kustomizationValue(path, text)),
      );
      continue;
    }
    for (const document of parseYamlDocuments(path, text).documents) {
      const object = asKubernetesObject(document.value);
      if (object) objects.push({ file: path, object });
    }
  }
  return { objects, kustomizations };
}

/** Every chart folder of the repository `files` render (`localCharts`), once per release. */
export async function findLocalCharts(
  tree: RepoTree,
  files: RepositoryFile[],
): Promise<LocalChart[]> {
  const { objects, kustomizations } = declarations(files, LOCAL_CHART_APPLIER);
  return localCharts(tree, files, objects, kustomizations);
}

/** The releases of `chart` among `files` (`clusterReleaseFiles`); `tree` reads the values files they name. */
export async function findHelmReleases(
  tree: RepoTree,
  files: RepositoryFile[],
  chart: string,
): Promise<HelmRelease[]> {
  // Only files that name the chart can declare it; a HelmRelease that takes
  // its chart through `chartRef` names the chart in the OCIRepository instead.
  const mayDeclare = anyOfWords([chart, 'chartRef'], 'i');
  const { objects, kustomizations } = declarations(files, mayDeclare);
  const releases: HelmRelease[] = [];
  for (const kustomization of kustomizations) {
    releases.push(
      ...(await kustomizeHelmChartReleases(tree, kustomization, chart)),
    );
  }
  const ociRepositories = objects.filter(o => isFluxOciRepository(o.object));
  for (const found of objects) {
    if (isFluxHelmRelease(found.object)) {
      const release = await fluxHelmRelease(
        tree,
        found,
        ociRepositories,
        files,
        chart,
      );
      if (release) releases.push(release);
    } else if (isArgoApplication(found.object)) {
      releases.push(...argoApplicationReleases(found, chart));
    } else if (isHelmChartProxy(found.object)) {
      const release = helmChartProxyRelease(found, chart);
      if (release) releases.push(release);
    } else if (
      chart === CLUSTER_POLICY_CHART &&
      isGpuOperatorClusterPolicy(found.object)
    ) {
      releases.push(
        clusterPolicyRelease(
          found,
          objects.filter(o => o.file === found.file),
        ),
      );
    }
  }
  for (const local of await localCharts(tree, files, objects, kustomizations)) {
    const release = localChartRelease(local, chart);
    if (release) releases.push(release);
  }
  return releases.sort(
    (a, b) =>
      compareStrings(a.file, b.file) ||
      compareStrings(a.declaredBy, b.declaredBy),
  );
}
