/**
 * One add-on chart's bootstrap step, the same for every chart a cluster
 * profile adds beside the GPU stack (NVIDIA's DRA driver, Kueue): where the
 * profile wants it and the repository installs none of its own, the
 * bootstrap writes (and later keeps) its own release in the chart's folder,
 * in the form the repository installs its charts (`chartReleaseForm`): a
 * kustomization whose `helmCharts` entry pins the chart beside its values,
 * or the GitOps tool's own objects (a Flux HelmRepository and HelmRelease,
 * or an Argo CD Application) in a plain kustomization. On a Cluster API
 * management repository whose workload Cluster has labels, the chart runs
 * where the GPU nodes are: a CAAPH HelmChartProxy in the GPU folder installs
 * it there (`helmChartProxyRelease.ts`), as it does the GPU Operator. A
 * release the team declares is never edited; the bootstrap's own that is
 * no longer wanted is retired (`retireBootstrapFolders.ts`).
 */
import { posix } from 'node:path';
import { Document } from 'yaml';
import type { StagedTree } from '../stagedTree';
import {
  bootstrapDocuments,
  bootstrapYaml,
  isBootstrapFile,
  type BootstrapFileWrite,
} from './bootstrapFile';
import {
  chartReleaseForm,
  type ChartReleaseForm,
} from './helmReleases/chartReleaseForm';
import {
  argoChartApplication,
  fluxChartObjects,
  type OciChart,
} from './helmReleases/chartReleaseObjects';
import {
  gitOpsToolNamespace,
  type GitOpsToolNamespace,
} from './helmReleases/gitOpsToolNamespace';
import type { RepositoryFile } from './helmReleases/valuesConfigMaps';
import type { StaleFolder } from './retireBootstrapFolders';
import { chartProxyFile } from '../workloadCluster/helmChartProxyRelease';
import type { WorkloadCluster } from '../workloadCluster/managementCluster';
import type { GpuFolder } from './wiring/wireGpuFolders';

/** An install the repository declares itself: the file it is in. */
export interface DeclaredInstall {
  file: string;
}

/** A chart the bootstrap may install, and when. */
export interface AddOnChart<Declared extends DeclaredInstall> {
  /** Whose chart, in the reviewer's words: "Kueue's", "NVIDIA's DRA driver". */
  owner: string;
  /** What the repository installs when it declares it: "Kueue", "NVIDIA's DRA driver". */
  installs: string;
  chart: OciChart;
  /** Its release's files: the kustomization, the values (kustomize form), the Flux / Argo CD objects (the others). */
  kustomization: string;
  values: string;
  release: string;
  /** The cluster profile asks for it. */
  wanted: boolean;
  /** Why its folder goes when not wanted: "the cluster profile no longer enables Kueue". */
  offReason: string;
  /**
   * What of the cluster's still needs it, among its files (outside the
   * bootstrap's folder), e.g. "DRA pools (`…`)"; undefined: nothing. Its
   * folder then stays, however the profile changed: removing it would break them.
   */
  stillUsedBy: (files: readonly RepositoryFile[]) => string | undefined;
  /** Its folder in the reviewer's words: "Kueue's release". */
  what: string;
  /** Its Helm values, computed only when the release is written. */
  helmValues: () => Record<string, unknown>;
  /** The values' comment lines. */
  valuesComment: string;
  /** How else the repository may declare it, beside a release of the chart (", or its kubelet plugin DaemonSet"). */
  otherDeclarations?: string;
  /** The installs the repository declares (the bootstrap's own among them: the step leaves those out). */
  declared: () => Promise<readonly Declared[]>;
}

/** `what` with the files that hold it, for `stillUsedBy`; undefined when there are none. */
export function usedFiles(
  files: readonly RepositoryFile[],
  what: string,
): string | undefined {
  return files.length > 0
    ? `${what} (${files.map(f => `\`${f.path}\``).join(', ')})`
    : undefined;
}

/** What the step found, and what the bootstrap writes for it. */
export type AddOnChartOutcome<Declared extends DeclaredInstall> =
  /**
   * Not wanted; `stale`, the bootstrap's own release from an earlier run,
   * which it retires; `kept`, that release kept while `usedBy` needs it.
   */
  | {
      kind: 'off';
      stale?: StaleFolder;
      kept?: { folder: string; usedBy: string; reason: string };
    }
  /** The bootstrap's own release, to write (or keep) whole. */
  | {
      kind: 'bootstrap';
      folder: string;
      /** The folder in the reviewer's words. */
      what: string;
      chart: OciChart;
      /** How it installs the chart: as the repository installs its others. */
      form: ChartReleaseForm;
      /** Where a Flux or Argo CD form's objects go: beside the repository's own. */
      toolNamespace?: GitOpsToolNamespace;
      files: BootstrapFileWrite[];
    }
  /**
   * On a Cluster API management repository whose workload Cluster has
   * labels: the HelmChartProxy that installs the chart there (in the GPU
   * folder, which the management cluster applies); `stale`, the release
   * folder an earlier run wrote (the Cluster had no labels then).
   */
  | {
      kind: 'proxy';
      file: BootstrapFileWrite;
      workload: WorkloadCluster;
      chart: OciChart;
      /** What it installs, in the reviewer's words. */
      installs: string;
      stale?: StaleFolder;
    }
  /** Installs the repository declares: left as they are; `stale`, the bootstrap's own as well, a second install it retires. */
  | { kind: 'repository'; declared: Declared[]; stale?: StaleFolder };

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

/** A Cluster API management repository's workload cluster, and the GPU folder's kustomization, where a proxy goes. */
export interface ProxyTarget {
  cluster: WorkloadCluster;
  gpuKustomization: string;
}

/** The chart's HelmChartProxy: the release the bootstrap would write, installed by CAAPH on the workload cluster. */
function proxyFile<D extends DeclaredInstall>(
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

export async function bootstrapAddOnChart<D extends DeclaredInstall>(
  staged: StagedTree,
  addOn: AddOnChart<D>,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
  /** On a Cluster API management repository: its workload cluster. */
  workload?: ProxyTarget,
): Promise<AddOnChartOutcome<D>> {
  const folder = posix.dirname(addOn.kustomization);
  const managed = isBootstrapFile(await staged.read(addOn.kustomization));
  const stale = (why: string) =>
    managed ? { stale: { folder, what: addOn.what, why } } : {};
  if (!addOn.wanted) {
    const usedBy = managed
      ? addOn.stillUsedBy(files.filter(f => posix.dirname(f.path) !== folder))
      : undefined;
    return usedBy
      ? { kind: 'off', kept: { folder, usedBy, reason: addOn.offReason } }
      : { kind: 'off', ...stale(addOn.offReason) };
  }
  // The bootstrap's own release is any file of its folder, whatever its form.
  const declared = (await addOn.declared()).filter(
    install => !(managed && posix.dirname(install.file) === folder),
  );
  if (declared.length > 0) {
    return {
      kind: 'repository',
      declared,
      ...stale(`the repository installs ${addOn.installs} itself`),
    };
  }
  const values = addOn.helmValues();
  if (workload && Object.keys(workload.cluster.labels).length > 0) {
    const file = proxyFile(addOn, values, workload);
    return {
      kind: 'proxy',
      file,
      workload: workload.cluster,
      chart: addOn.chart,
      installs: addOn.installs,
      ...stale(
        `HelmChartProxy \`${workload.cluster.namespace}/${addOn.chart.chart}\` installs ${addOn.installs} on the workload cluster \`${workload.cluster.name}\` instead`,
      ),
    };
  }
  const form = chartReleaseForm(files);
  const toolNamespace =
    form === 'kustomize' ? undefined : gitOpsToolNamespace(files, form);
  return {
    kind: 'bootstrap',
    folder,
    what: addOn.what,
    chart: addOn.chart,
    form,
    ...(toolNamespace ? { toolNamespace } : {}),
    files:
      form === 'kustomize' || !toolNamespace
        ? kustomizeRelease(addOn, values)
        : gitOpsToolRelease(addOn, values, form, toolNamespace.namespace),
  };
}

/** The bootstrap's folder of the chart, which whatever applies the cluster must apply (`wireGpuFolders`). */
export function addOnChartFolders<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): GpuFolder[] {
  return outcome.kind === 'bootstrap'
    ? [
        {
          folder: outcome.folder,
          what: outcome.what,
          helm: outcome.form === 'kustomize',
        },
      ]
    : [];
}

/** The files the bootstrap writes whole for the chart. */
export function addOnChartFiles<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): BootstrapFileWrite[] {
  if (outcome.kind === 'bootstrap') return outcome.files;
  return outcome.kind === 'proxy' ? [outcome.file] : [];
}

/** The GPU folder's new `resources`: the chart's HelmChartProxy, which the management cluster applies. */
export function addOnChartResources<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): string[] {
  return outcome.kind === 'proxy' ? [outcome.file.path] : [];
}

/** The bootstrap's folder of the chart the cluster no longer wants (`retireBootstrapFolders`). */
export function staleAddOnFolders<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): StaleFolder[] {
  return outcome.kind !== 'bootstrap' && outcome.stale ? [outcome.stale] : [];
}

/** What the pull request says of a release it keeps though the profile no longer wants it. */
export function keptAddOnNotes<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): string[] {
  if (outcome.kind !== 'off' || !outcome.kept) return [];
  const { folder, usedBy, reason } = outcome.kept;
  return [
    `${reason[0].toUpperCase()}${reason.slice(1)}, but ${usedBy} still need the bootstrap's release in \`${folder}/\`: it stays until they are gone (release them), and the bootstrap that runs after removes it.`,
  ];
}

/** What the pull request says of a chart CAAPH installs on the workload cluster. */
export function addOnProxyNotes<D extends DeclaredInstall>(
  outcome: AddOnChartOutcome<D>,
): string[] {
  if (outcome.kind !== 'proxy') return [];
  const { workload, file, chart, installs } = outcome;
  const selector = Object.entries(workload.labels)
    .map(([k, v]) => `\`${k}: ${v}\``)
    .join(', ');
  return [
    `${installs} runs in the workload cluster \`${workload.name}\`, where the GPU nodes are: the Cluster API add-on provider Helm (CAAPH) installs chart \`${chart.chart}\` ${chart.version} there from HelmChartProxy \`${workload.namespace}/${chart.chart}\` (\`${file.path}\`, its values in \`spec.valuesTemplate\`), which selects the Cluster by ${selector}. The management cluster must run CAAPH (\`clusterctl init --addon helm\`).`,
  ];
}
