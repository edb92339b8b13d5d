/**
 * Karpenter installed by a Flux HelmRelease (`helm.toolkit.fluxcd.io` v2,
 * v2beta2 or v2beta1): its chart named in `spec.chart.spec.chart`, or an
 * OCIRepository its `spec.chartRef` points at whose URL ends in the chart's
 * name (Flux's way for OCI charts, as Karpenter's are). Flux merges
 * `spec.valuesFrom` in order, the later winning, then `spec.values` over
 * them (https://fluxcd.io/flux/components/helm/helmreleases/#values-overrides);
 * `spec.chart.spec.valuesFiles` are files of the chart's source.
 */
import {
  getIn,
  isPlainObject,
  type PlainObject,
} from '../../../repo/yamlObjects';
import { KARPENTER_CHART } from './karpenterChart';
import {
  pinnedVersion,
  type FoundObject,
  type KarpenterRelease,
} from './karpenterRelease';
import type { ValuesLayer } from './nodeOverlayGate';

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
  typeof object.metadata.namespace === 'string'
    ? object.metadata.namespace
    : undefined;

/** Namespaces match when equal or when either is left to the applier (unset). */
function sameNamespace(a: string | undefined, b: string | undefined) {
  return a === undefined || b === undefined || a === b;
}

/** The Karpenter chart a HelmRelease installs, with the version it pins; undefined for another chart. */
function chartOf(
  release: FoundObject,
  ociRepositories: FoundObject[],
): { version?: string } | undefined {
  const spec = getIn(release.object, 'spec');
  const chartSpec = getIn(spec, 'chart', 'spec');
  if (isPlainObject(chartSpec)) {
    return chartSpec.chart === KARPENTER_CHART
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
  if (url.replace(/\/+$/, '').split('/').pop() !== KARPENTER_CHART) {
    return undefined;
  }
  const tag = getIn(source!.object, 'spec', 'ref', 'tag');
  const semver = getIn(source!.object, 'spec', 'ref', 'semver');
  return { version: pinnedVersion(tag) ?? pinnedVersion(semver) };
}

/** The HelmRelease as a Karpenter release, or undefined when it installs another chart. */
export function fluxHelmRelease(
  release: FoundObject,
  ociRepositories: FoundObject[],
): KarpenterRelease | undefined {
  const chart = chartOf(release, ociRepositories);
  if (!chart) return undefined;
  const name = [namespaceOf(release.object), release.object.metadata.name]
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
    layers.push({
      where: `\`spec.valuesFrom\` ${String(getIn(source, 'kind') ?? 'source')} \`${String(getIn(source, 'name') ?? '')}\``,
      form: 'values',
      content: 'hidden',
    });
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
    file: release.file,
    declaredBy: `Flux HelmRelease \`${name}\``,
    version: chart.version,
    layers,
  };
}
