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
import type { StagedTree } from '../stagedTree';
import { isBootstrapFile, type BootstrapFileWrite } from './bootstrapFile';
import { addOnReleaseFiles, proxyFile } from './addOnChartRelease';
import {
  chartReleaseForm,
  type ChartReleaseForm,
} from './helmReleases/chartReleaseForm';
import type { OciChart } from './helmReleases/chartReleaseObjects';
import {
  gitOpsToolNamespace,
  type GitOpsToolNamespace,
} from './helmReleases/gitOpsToolNamespace';
import type { RepositoryFile } from './helmReleases/valuesConfigMaps';
import type { StaleFolder } from './retireBootstrapFolders';
import type { WorkloadCluster } from '../workloadCluster/managementCluster';

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

/** A Cluster API management repository's workload cluster, and the GPU folder's kustomization, where a proxy goes. */
export interface ProxyTarget {
  cluster: WorkloadCluster;
  gpuKustomization: string;
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
    files: addOnReleaseFiles(addOn, values, form, toolNamespace),
  };
}
