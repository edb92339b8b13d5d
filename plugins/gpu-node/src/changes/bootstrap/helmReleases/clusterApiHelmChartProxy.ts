/**
 * A chart installed by a Cluster API add-on provider Helm (CAAPH)
 * `HelmChartProxy` (`addons.cluster.x-k8s.io/v1alpha1`): the management
 * cluster installs `spec.chartName` on every workload Cluster its
 * `clusterSelector` selects, into `spec.namespace` (default `default`),
 * with `spec.valuesTemplate` as its one values source
 * (kubernetes-sigs/cluster-api-addon-provider-helm
 * `api/v1alpha1/helmchartproxy_types.go`). CAPZ installs its GPU clusters'
 * GPU Operator this way (kubernetes-sigs/cluster-api-provider-azure
 * v1.26.0 `templates/addons/cluster-api-helm/gpu-operator.yaml`). Like the
 * other readers, a proxy in the cluster's folder (or outside every
 * cluster's) counts as the cluster's, whatever Clusters it selects.
 */
import { getIn, parseYamlDocuments } from '../../../repo/yamlObjects';
import {
  pinnedVersion,
  stringField,
  type FoundObject,
  type HelmRelease,
} from './helmRelease';
import type { ValuesLayer } from './valuesLayer';

export function isHelmChartProxy(object: FoundObject['object']): boolean {
  return (
    object.kind === 'HelmChartProxy' &&
    String(object.apiVersion).startsWith('addons.cluster.x-k8s.io/')
  );
}

/**
 * The proxy's values: its `valuesTemplate` read as YAML, except where it
 * holds Go template actions, which CAAPH renders per Cluster at install
 * time: then what it sets cannot be told from the file.
 */
function valuesTemplateLayer(where: string, template: unknown): ValuesLayer {
  if (typeof template !== 'string' || template.trim() === '') {
    return { where, form: 'values', content: 'absent' };
  }
  if (template.includes('{{')) {
    return {
      where: `${where} (a Go template CAAPH renders for each Cluster)`,
      form: 'values',
      content: 'hidden',
    };
  }
  const parsed = parseYamlDocuments(where, template);
  return parsed.error
    ? {
        where: `${where} (which does not parse: ${parsed.error})`,
        form: 'values',
        content: 'hidden',
      }
    : {
        where,
        form: 'values',
        content: { values: parsed.documents[0]?.value ?? {} },
      };
}

/** The release of `chart` a HelmChartProxy declares, if it installs that chart. */
export function helmChartProxyRelease(
  proxy: FoundObject,
  chart: string,
): HelmRelease | undefined {
  const { object, file } = proxy;
  if (getIn(object, 'spec', 'chartName') !== chart) return undefined;
  const name = [object.metadata.namespace, object.metadata.name]
    .filter(part => typeof part === 'string')
    .join('/');
  return {
    chart,
    file,
    declaredBy: `Cluster API add-on HelmChartProxy \`${name}\``,
    version: pinnedVersion(getIn(object, 'spec', 'version')),
    // CAAPH's default (`+kubebuilder:default:=default`).
    namespace: stringField(getIn(object, 'spec', 'namespace')) ?? 'default',
    layers: [
      valuesTemplateLayer(
        `\`spec.valuesTemplate\` of HelmChartProxy \`${name}\` in \`${file}\``,
        getIn(object, 'spec', 'valuesTemplate'),
      ),
    ],
  };
}
