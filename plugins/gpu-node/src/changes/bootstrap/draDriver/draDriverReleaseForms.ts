/**
 * The DRA driver's release as the GitOps tool that applies the cluster
 * installs charts (`helmReleases/chartReleaseObjects.ts`).
 */
import {
  argoChartApplication,
  fluxChartObjects,
  type OciChart,
} from '../helmReleases/chartReleaseObjects';
import {
  DRA_DRIVER_CHART,
  DRA_DRIVER_CHART_VERSION,
  DRA_DRIVER_NAMESPACE,
  DRA_DRIVER_REPO,
} from './draDriverChart';

const DRA_DRIVER: OciChart = {
  chart: DRA_DRIVER_CHART,
  repo: DRA_DRIVER_REPO,
  version: DRA_DRIVER_CHART_VERSION,
  namespace: DRA_DRIVER_NAMESPACE,
  helmRepositoryName: 'dra-driver-nvidia',
};

/** The Flux HelmRepository and HelmRelease of the driver. */
export function fluxDraDriverObjects(
  values: Record<string, unknown>,
  /** Where the repository keeps its Flux objects. */
  namespace: string,
): Record<string, unknown>[] {
  return fluxChartObjects(DRA_DRIVER, values, namespace);
}

/** The Argo CD Application of the driver. */
export function argoDraDriverApplication(
  values: Record<string, unknown>,
  /** Where the repository keeps its Argo CD Applications. */
  namespace: string,
): Record<string, unknown> {
  return argoChartApplication(DRA_DRIVER, values, namespace);
}
