/**
 * How the repository's objects are recognised as a device plugin that is not
 * the GPU Operator's (`deployedDevicePlugins` reads them):
 *
 * - Bottlerocket's built-in one: an EC2NodeClass of Bottlerocket
 *   (`amiFamily: Bottlerocket`, or an `amiSelectorTerms` alias
 *   `bottlerocket@…`): its NVIDIA variants run their own device plugin,
 *   configured by `[settings.kubelet-device-plugins.nvidia]` in the user
 *   data (bottlerocket-os/bottlerocket `sources/settings-extensions/kubelet-device-plugins`);
 * - a release of NVIDIA's `nvidia-device-plugin` Helm chart (any form
 *   `findHelmReleases` reads);
 * - its static manifest (`deployments/static/nvidia-device-plugin.yml`): a
 *   DaemonSet running the `k8s-device-plugin` image.
 */
import type { RepositoryFile } from '../../changes/bootstrap/helmReleases/valuesConfigMaps';
import {
  asKubernetesObject,
  getIn,
  parseYamlDocuments,
  type PlainObject,
} from '../yamlObjects';

/** NVIDIA's standalone device-plugin chart (https://nvidia.github.io/k8s-device-plugin). */
export const DEVICE_PLUGIN_CHART = 'nvidia-device-plugin';

/** The image of NVIDIA's device plugin (`nvcr.io/nvidia/k8s-device-plugin`). */
export const DEVICE_PLUGIN_IMAGE = /(^|\/)k8s-device-plugin(:|@|$)/;

export interface FileObject {
  file: string;
  object: PlainObject & { kind: string; metadata: PlainObject };
}

export function objectsOf(
  files: RepositoryFile[],
  mention: RegExp,
): FileObject[] {
  return files.flatMap(({ path, text }) => {
    if (!mention.test(text)) return [];
    return parseYamlDocuments(path, text).documents.flatMap(doc => {
      const object = asKubernetesObject(doc.value);
      return object ? [{ file: path, object }] : [];
    });
  });
}

/** Why an EC2NodeClass runs Bottlerocket, as written; undefined when it does not. */
export function bottlerocketSetting(object: PlainObject): string | undefined {
  if (getIn(object, 'spec', 'amiFamily') === 'Bottlerocket') {
    return '`amiFamily: Bottlerocket`';
  }
  const terms = getIn(object, 'spec', 'amiSelectorTerms');
  const alias = Array.isArray(terms)
    ? terms
        .map(term => getIn(term, 'alias'))
        .find(a => typeof a === 'string' && a.startsWith('bottlerocket@'))
    : undefined;
  return alias ? `\`amiSelectorTerms\` alias \`${String(alias)}\`` : undefined;
}
