/**
 * A chart installed by an Argo CD Application (`argoproj.io/v1alpha1`)
 * whose `spec.source.chart`, or one of whose `spec.sources[].chart`, is the
 * chart. Argo CD's precedence is `parameters > valuesObject > values >
 * valueFiles > the chart's values.yaml`
 * (https://argo-cd.readthedocs.io/en/release-3.3/user-guide/helm/), and
 * `valuesObject`, when present, replaces `values` whole
 * (argoproj/argo-cd `pkg/apis/application/v1alpha1/types.go`,
 * `ApplicationSourceHelm.ValuesYAML`). It installs into
 * `spec.destination.namespace`.
 */
import {
  getIn,
  isPlainObject,
  parseYamlDocuments,
  type PlainObject,
} from '../../../repo/yamlObjects';
import { helmParameterValues } from './helmParameters';
import {
  pinnedVersion,
  stringField,
  type FoundObject,
  type HelmRelease,
} from './helmRelease';
import type { ValuesLayer } from './valuesLayer';

export function isArgoApplication(object: FoundObject['object']): boolean {
  return (
    object.kind === 'Application' &&
    object.apiVersion === 'argoproj.io/v1alpha1'
  );
}

/**
 * An Application's sources, each with the field that holds it. A non-empty
 * `spec.sources` wins: "When you specify the sources field, Argo CD will
 * ignore the source (singular) field"
 * (https://argo-cd.readthedocs.io/en/release-3.3/user-guide/multiple_sources/;
 * argoproj/argo-cd `pkg/apis/application/v1alpha1/types.go`,
 * `ApplicationSpec.HasMultipleSources`).
 */
export function argoSources(
  object: PlainObject,
): [field: string, source: unknown][] {
  const many = getIn(object, 'spec', 'sources');
  if (Array.isArray(many) && many.length > 0) {
    return many.map((source, i) => [`spec.sources[${i}]`, source]);
  }
  const single = getIn(object, 'spec', 'source');
  return isPlainObject(single) ? [['spec.source', single]] : [];
}

/** The value layers of one Helm source, highest precedence first. */
export function sourceLayers(
  where: (field: string) => string,
  helm: unknown,
): ValuesLayer[] {
  const layers: ValuesLayer[] = [];
  const parameters = getIn(helm, 'parameters');
  if (Array.isArray(parameters) && parameters.length > 0) {
    layers.push({
      where: where('helm.parameters'),
      form: 'parameters',
      content: { values: helmParameterValues(parameters) },
    });
  }
  const valuesObject = getIn(helm, 'valuesObject');
  const values = getIn(helm, 'values');
  if (isPlainObject(valuesObject)) {
    layers.push({
      where: where('helm.valuesObject'),
      form: 'values',
      content: { values: valuesObject },
    });
  } else if (typeof values === 'string' && values.trim() !== '') {
    const parsed = parseYamlDocuments(where('helm.values'), values);
    layers.push({
      where: parsed.error
        ? `${where('helm.values')} (which does not parse: ${parsed.error})`
        : where('helm.values'),
      form: 'values',
      content: parsed.error
        ? 'hidden'
        : { values: parsed.documents[0]?.value ?? {} },
    });
  } else {
    layers.push({
      where: where('helm.valuesObject'),
      form: 'values',
      content: 'absent',
    });
  }
  const valueFiles = getIn(helm, 'valueFiles');
  for (const file of Array.isArray(valueFiles)
    ? [...valueFiles].reverse()
    : []) {
    layers.push({
      where: `${where('helm.valueFiles')} \`${String(file)}\` (in the chart's repository)`,
      form: 'values',
      content: 'hidden',
    });
  }
  return layers;
}

/** The Helm sources of an Application that install `chart`. */
export function argoApplicationReleases(
  application: FoundObject,
  chart: string,
): HelmRelease[] {
  const { object, file } = application;
  const name = [object.metadata.namespace, object.metadata.name]
    .filter(part => typeof part === 'string')
    .join('/');
  return argoSources(object)
    .filter(([, source]) => getIn(source, 'chart') === chart)
    .map(([path, source]) => ({
      chart,
      file,
      declaredBy: `Argo CD Application \`${name}\` (\`${path}\`)`,
      version: pinnedVersion(getIn(source, 'targetRevision')),
      namespace: stringField(getIn(object, 'spec', 'destination', 'namespace')),
      layers: sourceLayers(
        field =>
          `\`${path}.${field}\` of Application \`${name}\` in \`${file}\``,
        getIn(source, 'helm'),
      ),
    }));
}
