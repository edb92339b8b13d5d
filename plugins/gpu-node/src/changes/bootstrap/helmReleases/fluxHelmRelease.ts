/**
 * A chart installed by a Flux HelmRelease (`helm.toolkit.fluxcd.io` v2,
 * v2beta2 or v2beta1): named in `spec.chart.spec.chart`, or an
 * OCIRepository its `spec.chartRef` points at whose URL ends in the chart's
 * name (Flux's way for OCI charts). Flux merges `spec.valuesFrom` in order,
 * the later winning, then `spec.values` over them
 * (https://fluxcd.io/flux/components/helm/helmreleases/#values-overrides);
 * a ConfigMap of `valuesFrom` is read where the repository declares it
 * (`valuesConfigMaps.ts`), under its `valuesKey` (default `values.yaml`);
 * a Secret, a `targetPath` (which Flux places by Helm's `--set` rules,
 * fluxcd/pkg chartutil/v1.27.1 `chartutil/values.go`) and
 * `spec.chart.spec.valuesFiles` (files of the chart's source) are not read.
 * It installs into `spec.targetNamespace`, else its own namespace.
 */
import type { RepoTree } from '../../../repo/tree';
import {
  getIn,
  isPlainObject,
  parseYamlDocuments,
  type PlainObject,
} from '../../../repo/yamlObjects';
import {
  pinnedVersion,
  stringField,
  type FoundObject,
  type HelmRelease,
} from './helmRelease';
import type { ValuesLayer } from './valuesLayer';
import {
  sameNamespace,
  valuesConfigMapKey,
  type RepositoryFile,
} from './valuesConfigMaps';

export function isFluxHelmRelease(object: PlainObject): boolean {
  return (
    object.kind === 'HelmRelease' &&
    typeof object.apiVersion === 'string' &&
    /^helm\.toolkit\.fluxcd\.io\/v2(beta1|beta2)?$/.test(object.apiVersion)
  );
}

export function isFluxOciRepository(object: PlainObject): boolean {
  return (
    object.kind === 'OCIRepository' &&
    typeof object.apiVersion === 'string' &&
    object.apiVersion.startsWith('source.toolkit.fluxcd.io/')
  );
}

const namespaceOf = (object: FoundObject['object']) =>
  stringField(object.metadata.namespace);

/** The chart a HelmRelease installs, with the version it pins, when it is `chart`. */
function chartOf(
  release: FoundObject,
  ociRepositories: FoundObject[],
  chart: string,
): { version?: string } | undefined {
  const spec = getIn(release.object, 'spec');
  const chartSpec = getIn(spec, 'chart', 'spec');
  if (isPlainObject(chartSpec)) {
    return chartSpec.chart === chart
      ? { version: pinnedVersion(chartSpec.version) }
      : undefined;
  }
  const ref = getIn(spec, 'chartRef');
  if (!isPlainObject(ref) || ref.kind !== 'OCIRepository') return undefined;
  const namespace =
    typeof ref.namespace === 'string'
      ? ref.namespace
      : namespaceOf(release.object);
  const source = ociRepositories.find(
    ({ object }) =>
      object.metadata.name === ref.name &&
      sameNamespace(namespaceOf(object), namespace),
  );
  const url = getIn(source?.object, 'spec', 'url');
  if (typeof url !== 'string') return undefined;
  if (url.replace(/\/+$/, '').split('/').pop() !== chart) return undefined;
  const tag = getIn(source!.object, 'spec', 'ref', 'tag');
  const semver = getIn(source!.object, 'spec', 'ref', 'semver');
  return { version: pinnedVersion(tag) ?? pinnedVersion(semver) };
}

/** One `spec.valuesFrom` reference as a value layer. */
async function valuesFromLayer(
  tree: RepoTree,
  files: readonly RepositoryFile[],
  namespace: string | undefined,
  source: unknown,
): Promise<ValuesLayer> {
  const kind = String(getIn(source, 'kind') ?? 'source');
  const name = String(getIn(source, 'name') ?? '');
  const where = `\`spec.valuesFrom\` ${kind} \`${name}\``;
  const hidden = (why?: string): ValuesLayer => ({
    where: why ? `${where} (${why})` : where,
    form: 'values',
    content: 'hidden',
  });
  if (kind !== 'ConfigMap') return hidden();
  if (stringField(getIn(source, 'targetPath'))) {
    return hidden('its `targetPath` is not read');
  }
  const key = stringField(getIn(source, 'valuesKey')) ?? 'values.yaml';
  const found = await valuesConfigMapKey(tree, files, name, namespace, key);
  if (!('found' in found)) return hidden(found.unread);
  const { documents, error } = parseYamlDocuments(found.found, found.text);
  if (error) return hidden(`key \`${key}\`, which does not parse: ${error}`);
  return {
    where: `${where} (key \`${key}\`, in ${found.found})`,
    form: 'values',
    content: { values: documents[0]?.value ?? {} },
  };
}

/** The HelmRelease as a release of `chart`, or undefined when it installs another chart. */
export async function fluxHelmRelease(
  tree: RepoTree,
  release: FoundObject,
  ociRepositories: FoundObject[],
  files: readonly RepositoryFile[],
  chart: string,
): Promise<HelmRelease | undefined> {
  const installs = chartOf(release, ociRepositories, chart);
  if (!installs) return undefined;
  return fluxRelease(tree, release, files, chart, installs.version);
}

/** The HelmRelease as a release of `chart`, which it installs (pinning `version`). */
export async function fluxRelease(
  tree: RepoTree,
  release: FoundObject,
  files: readonly RepositoryFile[],
  chart: string,
  version: string | undefined,
): Promise<HelmRelease> {
  const namespace = namespaceOf(release.object);
  const name = [namespace, release.object.metadata.name]
    .filter(Boolean)
    .join('/');
  const spec = getIn(release.object, 'spec');
  const values = getIn(spec, 'values');
  const layers: ValuesLayer[] = [
    {
      where: `\`spec.values\` of HelmRelease \`${name}\` in \`${release.file}\``,
      form: 'values',
      content: isPlainObject(values) ? { values } : 'absent',
    },
  ];
  const valuesFrom = getIn(spec, 'valuesFrom');
  for (const source of Array.isArray(valuesFrom)
    ? [...valuesFrom].reverse()
    : []) {
    layers.push(await valuesFromLayer(tree, files, namespace, source));
  }
  const valuesFiles = getIn(spec, 'chart', 'spec', 'valuesFiles');
  for (const file of Array.isArray(valuesFiles)
    ? [...valuesFiles].reverse()
    : []) {
    layers.push({
      where: `\`spec.chart.spec.valuesFiles\` \`${String(file)}\` (in the chart's source)`,
      form: 'values',
      content: 'hidden',
    });
  }
  return {
    chart,
    file: release.file,
    declaredBy: `Flux HelmRelease \`${name}\``,
    version,
    namespace: stringField(getIn(spec, 'targetNamespace')) ?? namespace,
    layers,
  };
}
