/**
 * A chart installed by a kustomization's `helmCharts` entry. kustomize
 * merges an entry's values so (api/types/helmchartargs.go and
 * plugin/builtin/helmchartinflationgenerator/HelmChartInflationGenerator.go,
 * kubernetes-sigs/kustomize kustomize/v5.8.1): `valuesInline` over
 * `valuesFile` (`valuesMerge: override`, the default), `valuesFile` over
 * `valuesInline` (`merge`), or `valuesInline` alone (`replace`); the
 * `valuesFile` alone when there is no `valuesInline`; helm then reads
 * `additionalValuesFiles` after that, the last one winning. The release
 * goes to the entry's `namespace`, unless the kustomization's own
 * `namespace` moves every object it builds.
 */
import type { RepoTree } from '../../../repo/tree';
import {
  isPlainObject,
  parseYamlDocuments,
  type PlainObject,
} from '../../../repo/yamlObjects';
import { pinnedVersion, stringField, type HelmRelease } from './helmRelease';
import type { Kustomization } from '../../../kustomize/kustomization';
import { readKustomizationFile } from '../../../kustomize/namedFile';
import type { ValuesLayer } from './valuesLayer';

/** A values file an entry names, relative to its kustomization: read when it is a plain file of the repository. */
async function valuesFileLayer(
  tree: RepoTree,
  kustomizationFile: string,
  field: string,
  name: string,
): Promise<ValuesLayer> {
  const hidden = (why: string): ValuesLayer => ({
    where: `\`${name}\` (its \`${field}\`, ${why})`,
    form: 'values',
    content: 'hidden',
  });
  const file = await readKustomizationFile(tree, kustomizationFile, name);
  if ('unread' in file) return hidden(file.unread);
  const { documents, error } = parseYamlDocuments(file.path, file.text);
  if (error) return hidden(`which does not parse: ${error}`);
  return {
    where: `\`${file.path}\` (its \`${field}\`)`,
    form: 'values',
    content: { values: documents[0]?.value ?? {} },
  };
}

/** The value layers of one `helmCharts` entry, highest precedence first. */
export async function entryLayers(
  tree: RepoTree,
  file: string,
  chart: string,
  entry: PlainObject,
): Promise<ValuesLayer[]> {
  const additional: ValuesLayer[] = [];
  const additionalFiles = Array.isArray(entry.additionalValuesFiles)
    ? entry.additionalValuesFiles.filter(
        (f): f is string => typeof f === 'string',
      )
    : [];
  for (const name of [...additionalFiles].reverse()) {
    additional.push(
      await valuesFileLayer(tree, file, 'additionalValuesFiles', name),
    );
  }
  const inlineValues = isPlainObject(entry.valuesInline)
    ? entry.valuesInline
    : undefined;
  const inline: ValuesLayer = {
    where: `\`valuesInline\` of the helmCharts entry \`${chart}\` in \`${file}\``,
    form: 'values',
    content:
      inlineValues && Object.keys(inlineValues).length > 0
        ? { values: inlineValues }
        : 'absent',
  };
  const valuesFile =
    typeof entry.valuesFile === 'string' && entry.valuesFile !== ''
      ? await valuesFileLayer(tree, file, 'valuesFile', entry.valuesFile)
      : undefined;
  const merge =
    typeof entry.valuesMerge === 'string' ? entry.valuesMerge : 'override';
  let own: ValuesLayer[];
  if (inline.content === 'absent') {
    own = valuesFile ? [valuesFile, inline] : [inline];
  } else if (merge === 'replace') {
    own = [inline];
  } else if (merge === 'merge') {
    own = valuesFile ? [valuesFile, inline] : [inline];
  } else {
    own = valuesFile ? [inline, valuesFile] : [inline];
  }
  return [...additional, ...own];
}

/** The `helmCharts` entries of a kustomization that install `chart`. */
export async function kustomizeHelmChartReleases(
  tree: RepoTree,
  kustomization: Kustomization,
  chart: string,
): Promise<HelmRelease[]> {
  const { file } = kustomization;
  const releases: HelmRelease[] = [];
  for (const entry of kustomization.helmCharts) {
    if (entry.name !== chart) continue;
    releases.push({
      chart,
      file,
      declaredBy: `the kustomize helmCharts entry \`${chart}\``,
      version: pinnedVersion(entry.version),
      namespace: kustomization.namespace ?? stringField(entry.namespace),
      layers: await entryLayers(tree, file, chart, entry),
    });
  }
  return releases;
}
