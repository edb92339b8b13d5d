/**
 * How the repository installs the charts of a cluster, so a chart the
 * bootstrap adds is installed the same way: where a Flux object is among
 * the cluster's files (a HelmRelease, or a Flux Kustomization, whose
 * kustomize-controller never inflates kustomize `helmCharts`), a Flux
 * HelmRelease; else where an Argo CD Application installs a chart (a
 * `chart` source, as `argoApplicationReleases` reads it), an Argo CD
 * Application; else a kustomize `helmCharts` entry.
 */
import {
  asKubernetesObject,
  getIn,
  parseYamlDocuments,
  type PlainObject,
} from '../../../repo/yamlObjects';
import { argoSources, isArgoApplication } from './argoApplicationReleases';
import { isFluxHelmRelease } from './fluxHelmRelease';
import type { FoundObject } from './helmRelease';
import type { RepositoryFile } from './valuesConfigMaps';

export type ChartReleaseForm = 'kustomize' | 'flux' | 'argo';

function isFluxObject(object: PlainObject): boolean {
  return (
    isFluxHelmRelease(object) ||
    (object.kind === 'Kustomization' &&
      String(object.apiVersion).startsWith('kustomize.toolkit.fluxcd.io/'))
  );
}

function installsArgoChart(object: FoundObject['object']): boolean {
  return (
    isArgoApplication(object) &&
    argoSources(object).some(([, source]) => getIn(source, 'chart'))
  );
}

/** The form of the charts among `files` (`clusterReleaseFiles`). */
export function chartReleaseForm(files: RepositoryFile[]): ChartReleaseForm {
  let argo = false;
  for (const { path, text } of files) {
    if (!/fluxcd\.io|argoproj\.io/.test(text)) continue;
    for (const document of parseYamlDocuments(path, text).documents) {
      const object = asKubernetesObject(document.value);
      if (!object) continue;
      if (isFluxObject(object)) return 'flux';
      argo ||= installsArgoChart(object);
    }
  }
  return argo ? 'argo' : 'kustomize';
}
