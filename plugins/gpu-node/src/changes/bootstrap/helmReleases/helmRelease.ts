/**
 * A Helm release of one chart that the repository declares, as one of the
 * readers found it: one reader per declaration form
 * (`kustomizeHelmChartReleases`, `fluxHelmRelease`,
 * `argoApplicationReleases`, `helmChartProxyRelease`), shared by every chart the bootstrap looks for
 * (Karpenter's, the GPU Operator's).
 */
import type { PlainObject } from '../../../repo/yamlObjects';
import type { ValuesLayer } from './valuesLayer';

/** A Kubernetes object of the repository, with the file it is in. */
export interface FoundObject {
  file: string;
  object: PlainObject & {
    kind: string;
    metadata: PlainObject & { name: string };
  };
}

export interface HelmRelease {
  /** The chart's name, as the declaration names it. */
  chart: string;
  /** Repository path of the file that declares it. */
  file: string;
  /** What declares it, in the reviewer's words, e.g. "Flux HelmRelease `flux-system/karpenter`". */
  declaredBy: string;
  /** The chart version it pins, as written; undefined when it pins none. */
  version?: string;
  /**
   * The namespace it installs into, where the declaration says (the
   * helmCharts entry's, the HelmRelease's target, the Application's
   * destination); undefined when it leaves it to the tool.
   */
  namespace?: string;
  /** Its value sources, highest precedence first (the chart's own defaults come last, unlisted). */
  layers: ValuesLayer[];
}

/** A pinned version as written (YAML reads `version: 1.14` as a number). */
export function pinnedVersion(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}

/** A non-empty string field, or undefined. */
export function stringField(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}
