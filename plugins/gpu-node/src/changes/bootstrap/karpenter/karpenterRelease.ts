import type { PlainObject } from '../../../repo/yamlObjects';
import type { ValuesLayer } from './nodeOverlayGate';

/** A Kubernetes object of the repository, with the file it is in. */
export interface FoundObject {
  file: string;
  object: PlainObject & {
    kind: string;
    metadata: PlainObject & { name: string };
  };
}

/**
 * A Helm release of Karpenter's chart that the repository declares, as
 * one of the readers (`kustomizeHelmChartReleases`, `fluxHelmRelease`,
 * `argoApplicationReleases`) found it.
 */
export interface KarpenterRelease {
  /** Repository path of the file that declares it. */
  file: string;
  /** What declares it, in the reviewer's words, e.g. "Flux HelmRelease `flux-system/karpenter`". */
  declaredBy: string;
  /** The chart version it pins, as written; undefined when it pins none. */
  version?: string;
  /** Its value sources, highest precedence first (the chart's own defaults come last, unlisted). */
  layers: ValuesLayer[];
}

/** A pinned version as written (YAML reads `version: 1.14` as a number). */
export function pinnedVersion(value: unknown): string | undefined {
  if (typeof value === 'number') return String(value);
  return typeof value === 'string' && value.trim() !== '' ? value : undefined;
}
