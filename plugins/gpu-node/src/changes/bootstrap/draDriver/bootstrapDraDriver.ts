/**
 * The bootstrap's DRA driver step. When the cluster profile enables DRA
 * (`profileEnablesDra`) and the repository deploys no DRA driver of its own
 * (`readGpuStack`'s `draDrivers`: a chart release in any form, or the
 * kubelet plugin DaemonSet), the bootstrap writes (and later keeps) its own
 * release, in the form the repository installs its charts
 * (`chartReleaseForm`): a kustomization whose `helmCharts` entry pins the
 * chart beside its values, or a Flux HelmRepository and HelmRelease, or an
 * Argo CD Application (`draDriverReleaseForms.ts`). A driver the
 * team deploys is never edited; the notes say what it must set.
 */
import { posix } from 'node:path';
import {
  profileEnablesDra,
  type ClusterGpuStack,
  type ClusterProfile,
  type DeployedDraDriver,
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
  DRA_DRIVER_CHART,
  DRA_DRIVER_CHART_VERSION,
  DRA_DRIVER_NAMESPACE,
  DRA_DRIVER_REPO,
} from './draDriverChart';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import {
  chartReleaseForm,
  type ChartReleaseForm,
} from '../helmReleases/chartReleaseForm';
import {
  argoDraDriverApplication,
  fluxDraDriverObjects,
} from './draDriverReleaseForms';
import { buildDraDriverValues } from './draDriverValues';
import {
  gitOpsToolNamespace,
  type GitOpsToolNamespace,
} from '../helmReleases/gitOpsToolNamespace';
import { dynamicMigConflicts } from './dynamicMig';
import type { GpuFolder } from '../wiring/wireGpuFolders';

/** What the step found, and what the bootstrap writes for it. */
export type DraDriverOutcome =
  /** The profile does not enable DRA: no driver; `staleFolder`, the bootstrap's own from an earlier run. */
  | { kind: 'off'; staleFolder?: string }
  /** The bootstrap's own release, to write (or keep) whole. */
  | {
      kind: 'bootstrap';
      folder: string;
      /** How it installs the chart: as the repository installs its others. */
      form: ChartReleaseForm;
      /** Where a Flux or Argo CD form's objects go: beside the repository's own. */
      toolNamespace?: GitOpsToolNamespace;
      files: BootstrapFileWrite[];
    }
  /** Drivers the repository deploys: left as they are; `dynamicMig`, what to change where one runs DynamicMIG beside mig-parted. */
  | {
      kind: 'repository';
      drivers: DeployedDraDriver[];
      dynamicMig: string[];
      /** The bootstrap's own release, when one is there as well. */
      managedFolder?: string;
    };

/** The notes' and refusals' words for the files of the bootstrap's release. */
function releaseFile(
  path: string,
  content: string,
  what: string,
  folder: string,
): BootstrapFileWrite {
  const remedy = `Move it out of ${folder}/. If this repository installs NVIDIA's DRA driver, declare it so the bootstrap finds it (a kustomize helmCharts entry, a Flux HelmRelease or an Argo CD Application of the chart "${DRA_DRIVER_CHART}", or its kubelet plugin DaemonSet), then run the bootstrap again: it then writes no release of its own and never edits yours.`;
  return { path, content, what, remedy };
}

const VALUES_COMMENT = [
  `Helm values of NVIDIA's DRA driver (chart ${DRA_DRIVER_CHART} ${DRA_DRIVER_CHART_VERSION}, kubernetes-sigs/dra-driver-nvidia-gpu).`,
  "Its kubelet plugin runs only on the DRA pools' nodes (nvidia.com/gpu.deploy.device-plugin=false), where the GPU Operator runs no device plugin: never both on one node.",
  "The feature gates follow the cluster profile's dra settings; DynamicMIG stays off, as the MIG manager (mig-parted) runs on this cluster.",
].join('\n');

/** The release as a kustomize `helmCharts` entry and its values file. */
function kustomizeRelease(
  paths: BootstrapPaths,
  values: Record<string, unknown>,
  folder: string,
): BootstrapFileWrite[] {
  return [
    releaseFile(
      paths.draDriverValues,
      bootstrapYaml(values, VALUES_COMMENT),
      "NVIDIA's DRA driver Helm values",
      folder,
    ),
    releaseFile(
      paths.draDriverKustomization,
      bootstrapYaml(
        {
          apiVersion: 'kustomize.config.k8s.io/v1beta1',
          kind: 'Kustomization',
          helmCharts: [
            {
              name: DRA_DRIVER_CHART,
              repo: DRA_DRIVER_REPO,
              version: DRA_DRIVER_CHART_VERSION,
              releaseName: DRA_DRIVER_CHART,
              namespace: DRA_DRIVER_NAMESPACE,
              includeCRDs: true,
              valuesFile: 'values.yaml',
            },
          ],
        },
        "NVIDIA's DRA driver Helm release, a kustomize root of its own built with Helm (kustomize --enable-helm; an oci:// chart repository needs kustomize v5.2.0 or later).",
      ),
      "NVIDIA's DRA driver Helm release (a kustomize helmCharts entry)",
      folder,
    ),
  ];
}

/** The release as the GitOps tool's own objects, in a plain kustomization. */
function gitOpsToolRelease(
  paths: BootstrapPaths,
  values: Record<string, unknown>,
  form: 'flux' | 'argo',
  namespace: string,
  folder: string,
): BootstrapFileWrite[] {
  const objects =
    form === 'flux'
      ? fluxDraDriverObjects(values, namespace)
      : [argoDraDriverApplication(values, namespace)];
  const what =
    form === 'flux'
      ? "NVIDIA's DRA driver Helm release (a Flux HelmRepository and HelmRelease)"
      : "NVIDIA's DRA driver Helm release (an Argo CD Application of the chart)";
  return [
    releaseFile(
      paths.draDriverRelease,
      bootstrapDocuments(objects, VALUES_COMMENT),
      what,
      folder,
    ),
    releaseFile(
      paths.draDriverKustomization,
      bootstrapYaml({
        apiVersion: 'kustomize.config.k8s.io/v1beta1',
        kind: 'Kustomization',
        resources: [posix.basename(paths.draDriverRelease)],
      }),
      `the kustomization of ${what}`,
      folder,
    ),
  ];
}

function managedDraDriverRelease(
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  form: ChartReleaseForm,
  toolNamespace: GitOpsToolNamespace | undefined,
): BootstrapFileWrite[] {
  const folder = posix.dirname(paths.draDriverKustomization);
  const values = buildDraDriverValues(cluster);
  return form === 'kustomize' || !toolNamespace
    ? kustomizeRelease(paths, values, folder)
    : gitOpsToolRelease(paths, values, form, toolNamespace.namespace, folder);
}

export async function bootstrapDraDriver(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  /** What the repository runs on the GPU nodes (`readGpuStack`). */
  stack: ClusterGpuStack,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
): Promise<DraDriverOutcome> {
  const folder = posix.dirname(paths.draDriverKustomization);
  const managed = isBootstrapFile(
    await staged.read(paths.draDriverKustomization),
  );
  if (!profileEnablesDra(cluster)) {
    return { kind: 'off', ...(managed ? { staleFolder: folder } : {}) };
  }
  // The bootstrap's own release is any file of its folder, whatever its form.
  const declared = (stack.draDrivers ?? []).filter(
    driver => !(managed && posix.dirname(driver.file) === folder),
  );
  if (declared.length > 0) {
    return {
      kind: 'repository',
      drivers: declared,
      dynamicMig: await dynamicMigConflicts(staged.base, files, stack),
      ...(managed ? { managedFolder: folder } : {}),
    };
  }
  const form = chartReleaseForm(files);
  const toolNamespace =
    form === 'kustomize' ? undefined : gitOpsToolNamespace(files, form);
  return {
    kind: 'bootstrap',
    folder,
    form,
    ...(toolNamespace ? { toolNamespace } : {}),
    files: managedDraDriverRelease(paths, cluster, form, toolNamespace),
  };
}

/** The bootstrap's DRA driver folder, which whatever applies the cluster must apply (`wireGpuFolders`). */
export function draDriverFolders(outcome: DraDriverOutcome): GpuFolder[] {
  return outcome.kind === 'bootstrap'
    ? [
        {
          folder: outcome.folder,
          what: "NVIDIA's DRA driver release",
          helm: outcome.form === 'kustomize',
        },
      ]
    : [];
}
