/**
 * The files of an add-on chart's release (`addOnChart.ts`), in the form the
 * repository installs its charts: a kustomization whose `helmCharts` entry
 * pins the chart beside its values, the GitOps tool's own objects (a Flux
 * HelmRepository and HelmRelease, or an Argo CD Application) in a plain
 * kustomization, or on a Cluster API management repository the CAAPH
 * HelmChartProxy that installs it on the workload cluster.
 */
import { posix } from 'node:path';
import { Document } from 'yaml';
import {
  bootstrapDocuments,
  bootstrapYaml,
  type BootstrapFileWrite,
} from './bootstrapFile';
import type { ChartReleaseForm } from './helmReleases/chartReleaseForm';
import {
  argoChartApplication,
  fluxChartObjects,
} from './helmReleases/chartReleaseObjects';
import type { GitOpsToolNamespace } from './helmReleases/gitOpsToolNamespace';
import { chartProxyFile } from '../workloadCluster/helmChartProxyRelease';
import type { AddOnChart, DeclaredInstall, ProxyTarget } from './addOnChart';

/** The notes' and refusals' words for a file of the bootstrap's release. */
function releaseFile<D extends DeclaredInstall>(
  addOn: AddOnChart<D>,
  path: string,
  content: string,
  what: string,
): BootstrapFileWrite {
  const folder = posix.dirname(addOn.kustomization);
  const remedy = `Move it out of ${folder}/. If this repository installs ${addOn.installs}, declare it so the bootstrap finds it (a kustomize helmCharts entry, a Flux HelmRelease or an Argo CD Application of the chart "${addOn.chart.chart}"${addOn.otherDeclarations ?? ''}), then run the bootstrap again: it then writes no release of its own and never edits yours.`;
  return { path, content, what, remedy };
}

/** The release as a kustomize `helmCharts` entry and its values file. */
function kustomizeRelease<D extends DeclaredInstall>(
  addOn: AddOnChart<D>,
  values: Record<string, unknown>,
): BootstrapFileWrite[] {
  const { chart } = addOn;
  return [
    releaseFile(
      addOn,
      addOn.values,
      bootstrapYaml(values, addOn.valuesComment),
      `${addOn.owner} Helm values`,
    ),
    releaseFile(
      addOn,
      addOn.kustomization,
      bootstrapYaml(
        {
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          helmCharts: [
            {
              name: chart.chart,
              repo: chart.repo,
              version: chart.version,
              releaseName: chart.chart,
              namespace: chart.namespace,
              includeCRDs: true,
              valuesFile: posix.basename(addOn.values),
            },
          ],
        },
        `${addOn.owner} Helm release, a kustomize root of its own built with Helm (kustomize --enable-helm; an oci:// chart repository needs kustomize v5.2.0 or later).`,
      ),
      `${addOn.owner} Helm release (a kustomize helmCharts entry)`,
    ),
  ];
}

/** The release as the GitOps tool's own objects, in a plain kustomization. */
function gitOpsToolRelease<D extends DeclaredInstall>(
  addOn: AddOnChart<D>,
  values: Record<string, unknown>,
  form: 'flux' | 'argo',
  namespace: string,
): BootstrapFileWrite[] {
  const objects =
    form === 'flux'
      ? fluxChartObjects(addOn.chart, values, namespace)
      : [argoChartApplication(addOn.chart, values, namespace)];
  const what =
    form === 'flux'
      ? `${addOn.owner} Helm release (a Flux HelmRepository and HelmRelease)`
      : `${addOn.owner} Helm release (an Argo CD Application of the chart)`;
  return [
    releaseFile(
      addOn,
      addOn.release,
      bootstrapDocuments(objects, addOn.valuesComment),
      what,
    ),
    releaseFile(
      addOn,
      addOn.kustomization,
      bootstrapYaml({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: [posix.basename(addOn.release)],
      }),
      `the kustomization of ${what}`,
    ),
  ];
}

/** The release's files in `form` (the kustomize form where the tool's namespace is unknown). */
export function addOnReleaseFiles<D extends DeclaredInstall>(
  addOn: AddOnChart<D>,
  values: Record<string, unknown>,
  form: ChartReleaseForm,
  toolNamespace: GitOpsToolNamespace | undefined,
): BootstrapFileWrite[] {
  return form === 'kustomize' || !toolNamespace
    ? kustomizeRelease(addOn, values)
    : gitOpsToolRelease(addOn, values, form, toolNamespace.namespace);
}

/** The chart's HelmChartProxy: the release the bootstrap would write, installed by CAAPH on the workload cluster. */
export function proxyFile<D extends DeclaredInstall>(
  addOn: AddOnChart<D>,
  values: Record<string, unknown>,
  target: ProxyTarget,
): BootstrapFileWrite {
  const { chart } = addOn;
  const remedy = releaseFile(addOn, '', '', '').remedy;
  return chartProxyFile(
    {
      name: chart.chart,
      repoURL: chart.repo,
      version: chart.version,
      releaseName: chart.chart,
      namespace: chart.namespace,
      valuesTemplate: new Document(values).toString({ lineWidth: 0 }),
    },
    target.cluster,
    target.gpuKustomization,
    remedy,
  );
}
