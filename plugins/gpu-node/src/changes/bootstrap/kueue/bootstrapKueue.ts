/**
 * The bootstrap's Kueue step. When the cluster profile enables Kueue and
 * the repository installs no Kueue of its own (a release of the chart
 * `kueue` in any form `findHelmReleases` reads, or Kueue's plain
 * manifests: `repositoryKueue.ts`), the bootstrap writes (and
 * later keeps) its own release, at the profile's Kueue version, in the form
 * the repository installs its charts (`chartReleaseForm`), with the
 * Configuration the product's queues need (`kueueConfiguration.ts`). A
 * Kueue the team installs is never edited; the notes say what its
 * Configuration must hold.
 */
import { posix } from 'node:path';
import {
  kueueVersionOf,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { StagedTree } from '../../stagedTree';
import {
  bootstrapDocuments,
  bootstrapYaml,
  isBootstrapFile,
  type BootstrapFileWrite,
} from '../bootstrapFile';
import type { BootstrapPaths } from '../bootstrapPaths';
import {
  chartReleaseForm,
  type ChartReleaseForm,
} from '../helmReleases/chartReleaseForm';
import {
  argoChartApplication,
  fluxChartObjects,
  type OciChart,
} from '../helmReleases/chartReleaseObjects';
import {
  gitOpsToolNamespace,
  type GitOpsToolNamespace,
} from '../helmReleases/gitOpsToolNamespace';
import type { HelmRelease } from '../helmReleases/helmRelease';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import type { GpuFolder } from '../wiring/wireGpuFolders';
import { KUEUE_CHART, kueueChart } from './kueueChart';
import { kueueChartValues } from './kueueConfiguration';
import { repositoryKueueReleases } from './repositoryKueue';

/** What the step found, and what the bootstrap writes for it. */
export type KueueOutcome =
  /** The profile does not enable Kueue; `staleFolder`, the bootstrap's own release from an earlier run. */
  | { kind: 'off'; staleFolder?: string }
  /** The bootstrap's own release, to write (or keep) whole. */
  | {
      kind: 'bootstrap';
      folder: string;
      chart: OciChart;
      form: ChartReleaseForm;
      toolNamespace?: GitOpsToolNamespace;
      files: BootstrapFileWrite[];
    }
  /** Kueue releases the repository declares: left as they are. */
  | { kind: 'repository'; releases: HelmRelease[]; managedFolder?: string };

function releaseFile(
  path: string,
  content: string,
  what: string,
  folder: string,
): BootstrapFileWrite {
  const remedy = `Move it out of ${folder}/. If this repository installs Kueue, declare it so the bootstrap finds it (a kustomize helmCharts entry, a Flux HelmRelease or an Argo CD Application of the chart "${KUEUE_CHART}", or Kueue's release manifests), then run the bootstrap again: it then writes no release of its own and never edits yours.`;
  return { path, content, what, remedy };
}

const valuesComment = (chart: OciChart) =>
  [
    `Helm values of Kueue (chart ${chart.chart} ${chart.version}, kubernetes-sigs/kueue): its Configuration, the chart's default with what the GPU queues need.`,
    'The chart rolls kueue-controller-manager when this Configuration changes (Kueue reads deviceClassMappings only at start).',
  ].join('\n');

function kustomizeRelease(
  paths: BootstrapPaths,
  chart: OciChart,
  values: Record<string, unknown>,
  folder: string,
): BootstrapFileWrite[] {
  return [
    releaseFile(
      paths.kueueValues,
      bootstrapYaml(values, valuesComment(chart)),
      "Kueue's Helm values",
      folder,
    ),
    releaseFile(
      paths.kueueKustomization,
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
              valuesFile: 'values.yaml',
            },
          ],
        },
        "Kueue's Helm release, a kustomize root of its own built with Helm (kustomize --enable-helm; an oci:// chart repository needs kustomize v5.2.0 or later).",
      ),
      "Kueue's Helm release (a kustomize helmCharts entry)",
      folder,
    ),
  ];
}

function gitOpsToolRelease(
  paths: BootstrapPaths,
  chart: OciChart,
  values: Record<string, unknown>,
  form: 'flux' | 'argo',
  namespace: string,
  folder: string,
): BootstrapFileWrite[] {
  const objects =
    form === 'flux'
      ? fluxChartObjects(chart, values, namespace)
      : [argoChartApplication(chart, values, namespace)];
  const what =
    form === 'flux'
      ? "Kueue's Helm release (a Flux HelmRepository and HelmRelease)"
      : "Kueue's Helm release (an Argo CD Application of the chart)";
  return [
    releaseFile(
      paths.kueueRelease,
      bootstrapDocuments(objects, valuesComment(chart)),
      what,
      folder,
    ),
    releaseFile(
      paths.kueueKustomization,
      bootstrapYaml({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: [posix.basename(paths.kueueRelease)],
      }),
      `the kustomization of ${what}`,
      folder,
    ),
  ];
}

export async function bootstrapKueue(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
): Promise<KueueOutcome> {
  const folder = posix.dirname(paths.kueueKustomization);
  const managed = isBootstrapFile(await staged.read(paths.kueueKustomization));
  if (!cluster.kueue) {
    return { kind: 'off', ...(managed ? { staleFolder: folder } : {}) };
  }
  const declared = (await repositoryKueueReleases(staged.base, files)).filter(
    release => !(managed && posix.dirname(release.file) === folder),
  );
  if (declared.length > 0) {
    return {
      kind: 'repository',
      releases: declared,
      ...(managed ? { managedFolder: folder } : {}),
    };
  }
  const chart = kueueChart(kueueVersionOf(cluster));
  const values = kueueChartValues(cluster);
  const form = chartReleaseForm(files);
  const toolNamespace =
    form === 'kustomize' ? undefined : gitOpsToolNamespace(files, form);
  return {
    kind: 'bootstrap',
    folder,
    chart,
    form,
    ...(toolNamespace ? { toolNamespace } : {}),
    files:
      form === 'kustomize' || !toolNamespace
        ? kustomizeRelease(paths, chart, values, folder)
        : gitOpsToolRelease(
            paths,
            chart,
            values,
            form,
            toolNamespace.namespace,
            folder,
          ),
  };
}

/** The bootstrap's Kueue folder, which whatever applies the cluster must apply (`wireGpuFolders`). */
export function kueueFolders(outcome: KueueOutcome): GpuFolder[] {
  return outcome.kind === 'bootstrap'
    ? [
        {
          folder: outcome.folder,
          what: "Kueue's release",
          helm: outcome.form === 'kustomize',
        },
      ]
    : [];
}
