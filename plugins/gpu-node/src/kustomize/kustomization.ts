/**
 * One kustomization file, read once into what every reader of the product
 * asks of it: the entries it builds from (`resources`, the legacy `bases`,
 * `components`), the namespace it sets, its patches, its `replicas:` and
 * its Helm charts. Field names and meanings are kustomize's
 * (kubernetes-sigs/kustomize `api/types/kustomization.go`, v5.x); paths are
 * resolved as `entryPaths.ts` says. The folder graph (`roots.ts`), the
 * workload readers (`workloads/`) and validate read kustomizations through
 * this, and so do the listing of new files (`changes/listing.ts`) and the
 * Helm chart reader (`kustomizeHelmChartReleases.ts`); the editors that
 * write one sit beside it, one field each (`editResources.ts`,
 * `editPatches.ts`, `editGenerators.ts`, `editReplicas.ts`).
 */
import {
  parseYamlDocuments,
  isPlainObject,
  type PlainObject,
} from '../repo/yamlObjects';
import { isRemoteEntry, resolveEntry } from './entryPaths';
import { kustomizationFolder } from './fileNames';
import {
  kustomizationPatchEntries,
  type KustomizationPatchEntry,
} from './patchEntries';

/** Kustomization fields that inflate Helm charts (kustomize api/types/kustomization.go, v4.5.4). */
export const HELM_FIELDS = [
  'helmCharts',
  'helmChartInflationGenerator',
] as const;

/** Fields whose entries name files or kustomization folders to build from. */
export const BUILD_FROM_FIELDS = ['resources', 'bases', 'components'] as const;

/** One kustomization file as read. */
export interface Kustomization {
  /** Repository path of the file. */
  file: string;
  /** Its folder, '.' for the top. */
  folder: string;
  /** The document as data (undefined when it does not parse to a map). */
  value: Record<string, unknown> | undefined;
  /** The local entries of `resources` as repository paths (files or kustomization folders). */
  resources: string[];
  /** The local entries of `resources` / `bases` / `components`, in that order. */
  buildsFrom: string[];
  /** `namespace:` it sets on everything it builds. */
  namespace?: string;
  patches: KustomizationPatchEntry[];
  /** Its `replicas:` entries: workload name → count (applied after every patch). */
  replicas: Map<string, number>;
  /** Its `helmCharts` entries (kustomize api/types/helmchartargs.go), as written. */
  helmCharts: PlainObject[];
  /** Release names of its `helmCharts`. */
  helmReleases: string[];
  /** Declares Helm charts to inflate (`helmCharts` or `helmChartInflationGenerator`). */
  inflatesHelmCharts: boolean;
}

const list = (value: unknown): unknown[] => (Array.isArray(value) ? value : []);

/** The local entries of `fields` as repository paths; remote ones are kustomize's to fetch. */
function localEntries(
  folder: string,
  value: Record<string, unknown> | undefined,
  fields: readonly string[],
): string[] {
  const out: string[] = [];
  for (const field of fields) {
    for (const item of list(value?.[field])) {
      if (typeof item !== 'string' || isRemoteEntry(item)) continue;
      const path = resolveEntry(folder, item);
      if (path !== undefined) out.push(path);
    }
  }
  return out;
}

function replicasEntries(value: Record<string, unknown> | undefined) {
  const out = new Map<string, number>();
  for (const entry of list(value?.replicas)) {
    if (isPlainObject(entry) && typeof entry.name === 'string') {
      out.set(entry.name, Number(entry.count));
    }
  }
  return out;
}

/** The document of a kustomization file, parsed. */
export function kustomizationValue(
  file: string,
  text: string,
): Record<string, unknown> | undefined {
  const value = parseYamlDocuments(file, text).documents[0]?.value;
  return isPlainObject(value) ? value : undefined;
}

/** The kustomization `file` whose document is `value` (see `kustomizationValue`). */
export function readKustomization(
  file: string,
  value: Record<string, unknown> | undefined,
): Kustomization {
  const folder = kustomizationFolder(file);
  const namespace = value?.namespace;
  const helmCharts = list(value?.helmCharts).filter(isPlainObject);
  return {
    file,
    folder,
    value,
    resources: localEntries(folder, value, ['resources']),
    buildsFrom: localEntries(folder, value, BUILD_FROM_FIELDS),
    ...(typeof namespace === 'string' && namespace !== '' ? { namespace } : {}),
    patches: kustomizationPatchEntries(file, value),
    replicas: replicasEntries(value),
    helmCharts,
    helmReleases: helmCharts
      .map(chart => String(chart.releaseName ?? chart.name ?? ''))
      .filter(Boolean),
    inflatesHelmCharts: HELM_FIELDS.some(field => value?.[field] !== undefined),
  };
}
