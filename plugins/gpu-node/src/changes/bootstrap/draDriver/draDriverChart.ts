/**
 * NVIDIA's DRA driver for GPUs as the bootstrap installs it: the Helm chart
 * `dra-driver-nvidia-gpu` of kubernetes-sigs/dra-driver-nvidia-gpu, which
 * NVIDIA published as `nvidia-dra-driver-gpu` before the move
 * (`repo/gpuStack/draDrivers.ts` recognises both names). Sources, at
 * dra-driver-nvidia-gpu@95932046 (main of 2026-08-07, chart `0.5.0-dev`,
 * the v0.5 line; release v0.5.0 2026-08-18, release issue #1365):
 * - `deployments/helm/dra-driver-nvidia-gpu/Chart.yaml` (name, `kubeVersion`);
 * - `site/content/docs/install.md`: `helm install dra-driver-nvidia-gpu
 *   oci://registry.k8s.io/dra-driver-nvidia/charts/dra-driver-nvidia-gpu`
 *   into namespace `dra-driver-nvidia-gpu`, never `default`
 *   (`templates/validation.yaml` refuses it without `allowDefaultNamespace`).
 */
import type { OciChart } from '../helmReleases/chartReleaseObjects';

/** The chart's name, and the name of the release the bootstrap writes. */
export const DRA_DRIVER_CHART = 'dra-driver-nvidia-gpu';

/** kustomize `helmCharts` `repo`: the OCI repository kustomize pulls `<repo>/<name>` from (kustomize v5.2.0 and later). */
export const DRA_DRIVER_REPO = 'oci://registry.k8s.io/dra-driver-nvidia/charts';

/** The chart version the bootstrap pins (strict semver, no `v`: `Chart.yaml`). */
export const DRA_DRIVER_CHART_VERSION = '0.5.0';

/** The namespace upstream's install guide uses. */
export const DRA_DRIVER_NAMESPACE = 'dra-driver-nvidia-gpu';

/** The chart as the bootstrap's release pins it, in any form (`addOnChart.ts`). */
export const DRA_DRIVER_OCI_CHART: OciChart = {
  chart: DRA_DRIVER_CHART,
  repo: DRA_DRIVER_REPO,
  version: DRA_DRIVER_CHART_VERSION,
  namespace: DRA_DRIVER_NAMESPACE,
  helmRepositoryName: 'dra-driver-nvidia',
};

/**
 * The driver's feature gate that publishes a `shares` capacity on every GPU
 * (`pkg/featuregates/featuregates.go`, Alpha, off by default), read with the
 * chart's `consumableShares` ("disabled", "memory", "unlimited" or an
 * integer: `values.yaml`).
 */
export const CONSUMABLE_SHARES_GATE = 'ConsumableShares';

/**
 * The driver's gate that creates and destroys MIG partitions itself: it
 * destroys partitions it did not create, and upstream says never to run
 * mig-parted beside it (`site/content/docs/guides/gpu-allocation/mig.md`).
 * The bootstrap writes mig-parted's config, so it never turns this on.
 */
export const DYNAMIC_MIG_GATE = 'DynamicMIG';
