/**
 * The bootstrap's DRA driver step, an add-on chart (`addOnChart.ts`): when
 * the cluster profile enables DRA (`profileEnablesDra`) and the repository
 * deploys no DRA driver of its own (`readGpuStack`'s `draDrivers`: a chart
 * release in any form, or the kubelet plugin DaemonSet), the bootstrap
 * writes (and later keeps) its own release. A driver the team deploys is
 * never edited; the notes say what it must set, and where it runs
 * DynamicMIG beside mig-parted.
 */
import {
  gpuAnnotationKeys,
  profileEnablesDra,
  type ClusterGpuStack,
  type ClusterProfile,
  type DeployedDraDriver,
} from '@gpu-gitops/plugin-gpu-common';
import type { StagedTree } from '../../stagedTree';
import {
  bootstrapAddOnChart,
  type AddOnChart,
  type AddOnChartOutcome,
  type ProxyTarget,
  usedFiles,
} from '../addOnChart';
import type { BootstrapPaths } from '../bootstrapPaths';
import { escapeRegExp } from '../../../escapeRegExp';
import type { RepositoryFile } from '../helmReleases/valuesConfigMaps';
import {
  DRA_DRIVER_CHART,
  DRA_DRIVER_CHART_VERSION,
  DRA_DRIVER_OCI_CHART,
} from './draDriverChart';
import { buildDraDriverValues } from './draDriverValues';
import { dynamicMigConflicts } from './dynamicMig';

type Outcome = AddOnChartOutcome<DeployedDraDriver>;

/** What the step found; drivers the repository deploys with `dynamicMig`, what to change where one runs DynamicMIG beside mig-parted. */
export type DraDriverOutcome =
  | Exclude<Outcome, { kind: 'repository' }>
  | (Extract<Outcome, { kind: 'repository' }> & { dynamicMig: string[] });

const VALUES_COMMENT = [
  `Helm values of NVIDIA's DRA driver (chart ${DRA_DRIVER_CHART} ${DRA_DRIVER_CHART_VERSION}, kubernetes-sigs/dra-driver-nvidia-gpu).`,
  "Its kubelet plugin runs only on the DRA pools' nodes (nvidia.com/gpu.deploy.device-plugin=false), where the GPU Operator runs no device plugin: never both on one node.",
  "The feature gates follow the cluster profile's dra settings; DynamicMIG stays off, as the MIG manager (mig-parted) runs on this cluster.",
].join('\n');

/** A pool the product plans as DRA: its sharing-mode annotation says `dra` (`gpuAnnotationKeys`). */
const draPoolAnnotation = (labelDomain: string) =>
  new RegExp(
    `${escapeRegExp(gpuAnnotationKeys(labelDomain).sharingMode)}['"]?\\s*:\\s*['"]?dra\\b`,
  );

/** NVIDIA's DRA driver as an add-on chart of `cluster`. */
export function draDriverAddOn(
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  /** What the repository runs on the GPU nodes (`readGpuStack`). */
  stack: ClusterGpuStack,
): AddOnChart<DeployedDraDriver> {
  return {
    owner: "NVIDIA's DRA driver",
    installs: "NVIDIA's DRA driver",
    chart: DRA_DRIVER_OCI_CHART,
    kustomization: paths.draDriverKustomization,
    values: paths.draDriverValues,
    release: paths.draDriverRelease,
    wanted: profileEnablesDra(cluster),
    offReason: 'the cluster profile no longer enables DRA',
    stillUsedBy: used => {
      const dra = draPoolAnnotation(cluster.labelDomain);
      return usedFiles(
        used.filter(f => dra.test(f.text)),
        'the DRA pools',
      );
    },
    what: "NVIDIA's DRA driver release",
    helmValues: () => buildDraDriverValues(cluster),
    valuesComment: VALUES_COMMENT,
    otherDeclarations: ', or its kubelet plugin DaemonSet',
    declared: async () => stack.draDrivers ?? [],
  };
}

export async function bootstrapDraDriver(
  staged: StagedTree,
  paths: BootstrapPaths,
  cluster: ClusterProfile,
  /** What the repository runs on the GPU nodes (`readGpuStack`). */
  stack: ClusterGpuStack,
  /** The cluster's files (`clusterReleaseFiles`), read once per bootstrap. */
  files: RepositoryFile[],
  /** On a Cluster API management repository: its workload cluster. */
  workload?: ProxyTarget,
): Promise<DraDriverOutcome> {
  const outcome = await bootstrapAddOnChart(
    staged,
    draDriverAddOn(paths, cluster, stack),
    files,
    workload,
  );
  return outcome.kind === 'repository'
    ? {
        ...outcome,
        dynamicMig: await dynamicMigConflicts(staged.base, files, stack),
      }
    : outcome;
}
