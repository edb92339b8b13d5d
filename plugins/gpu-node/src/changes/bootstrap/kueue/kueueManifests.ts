/**
 * Kueue installed from plain manifests rather than by a Helm tool: upstream's
 * release asset `manifests.yaml` (`kustomize build config/default`,
 * kubernetes-sigs/kueue v0.19.2 `Makefile` target `artifacts`) listed as a
 * remote resource of a kustomization, or those manifests vendored into the
 * repository. Either way the controller is the Deployment
 * `kueue-controller-manager` and reads its Configuration from the key
 * `controller_manager_config.yaml` of the ConfigMap `kueue-manager-config`
 * (`config/default/kustomization.yaml` `namePrefix: kueue-`,
 * `namespace: kueue-system`; `config/components/manager/kustomization.yaml`
 * generates `manager-config` from that file). The chart's value
 * `managerConfig.controllerManagerConfigYaml` is that same key
 * (`charts/kueue/templates/manager/manager-config.yaml`), so such an install
 * is read as a release whose one values source is the ConfigMap, and the
 * Configuration is read the same way whichever form installs Kueue
 * (`repositoryKueue.ts`).
 */
import { kustomizationValue } from '../../../kustomize/kustomization';
import { isKustomizationFile } from '../../../kustomize/roots';
import type { RepoTree } from '../../../repo/tree';
import {
  asKubernetesObject,
  getIn,
  parseYamlDocuments,
} from '../../../repo/yamlObjects';
import { stringField, type HelmRelease } from '../helmReleases/helmRelease';
import {
  valuesConfigMapKey,
  type RepositoryFile,
} from '../helmReleases/valuesConfigMaps';
import type { ValuesLayer } from '../helmReleases/valuesLayer';
import { KUEUE_CHART, KUEUE_NAMESPACE } from './kueueChart';

const CONTROLLER = 'kueue-controller-manager';
const CONFIG_MAP = 'kueue-manager-config';
const CONFIG_KEY = 'controller_manager_config.yaml';

/**
 * A remote resource that is Kueue's release: the release asset
 * (`…/releases/download/v0.19.2/manifests.yaml`) or the folder it is built
 * from (`github.com/kubernetes-sigs/kueue/config/default?ref=v0.19.2`).
 */
const RELEASE_RESOURCE =
  /github\.com\/kubernetes-sigs\/kueue\/(?:releases\/download\/v?([\w.-]+)\/manifests[\w-]*\.yaml|config\/default(?:\?ref=v?([\w.-]+))?)/;

/** How an install of plain manifests is found, before its Configuration is read. */
interface ManifestInstall {
  file: string;
  declaredBy: string;
  version?: string;
  namespace?: string;
  /** The manifests themselves are not in the repository (a remote resource): no ConfigMap there means upstream's. */
  remote: boolean;
}

function remoteInstalls(path: string, text: string): ManifestInstall[] {
  const resources = getIn(kustomizationValue(path, text), 'resources');
  return (Array.isArray(resources) ? resources : []).flatMap(entry => {
    const match =
      typeof entry === 'string' ? RELEASE_RESOURCE.exec(entry) : null;
    if (!match) return [];
    return [
      {
        file: path,
        declaredBy: `the kustomization \`${path}\` (Kueue's release manifests \`${entry}\`)`,
        version: match[1] ?? match[2],
        namespace: KUEUE_NAMESPACE,
        remote: true,
      },
    ];
  });
}

function vendoredInstalls(path: string, text: string): ManifestInstall[] {
  return parseYamlDocuments(path, text).documents.flatMap(document => {
    const object = asKubernetesObject(document.value);
    if (object?.kind !== 'Deployment' || object.metadata.name !== CONTROLLER) {
      return [];
    }
    const namespace = stringField(object.metadata.namespace);
    const containers = getIn(object, 'spec', 'template', 'spec', 'containers');
    const image = (Array.isArray(containers) ? containers : [])
      .map(c => stringField(getIn(c, 'image')))
      .find(i => i && /\/kueue(:|@|$)/.test(i));
    return [
      {
        file: path,
        declaredBy: `Kueue's plain manifests (Deployment \`${namespace ?? KUEUE_NAMESPACE}/${CONTROLLER}\` in \`${path}\`)`,
        version: image?.match(/:v?([^:@/]+)$/)?.[1],
        namespace,
        remote: false,
      },
    ];
  });
}

/** The install's Configuration as a values source, as the chart's value would hold it. */
async function configurationLayer(
  tree: RepoTree,
  files: readonly RepositoryFile[],
  install: ManifestInstall,
): Promise<ValuesLayer[]> {
  const key = await valuesConfigMapKey(
    tree,
    files,
    CONFIG_MAP,
    install.namespace,
    CONFIG_KEY,
  );
  if ('found' in key) {
    return [
      {
        where: `\`${CONFIG_KEY}\` of ConfigMap \`${CONFIG_MAP}\` in ${key.found}`,
        form: 'values',
        content: {
          values: { managerConfig: { controllerManagerConfigYaml: key.text } },
        },
      },
    ];
  }
  // Upstream's own ConfigMap comes with the remote manifests: its default.
  if (install.remote && key.unread === undefined) return [];
  return [
    {
      where: `ConfigMap \`${CONFIG_MAP}\` (${key.unread ?? 'not in the repository'})`,
      form: 'values',
      content: 'hidden',
    },
  ];
}

/** Every Kueue installed from plain manifests among `files` (`clusterReleaseFiles`). */
export async function kueueManifestReleases(
  tree: RepoTree,
  files: readonly RepositoryFile[],
): Promise<HelmRelease[]> {
  const installs = files
    .filter(f => f.text.includes('kueue'))
    .flatMap(({ path, text }) =>
      isKustomizationFile(path)
        ? remoteInstalls(path, text)
        : vendoredInstalls(path, text),
    );
  return Promise.all(
    installs.map(async ({ remote, ...install }) => ({
      chart: KUEUE_CHART,
      ...install,
      layers: await configurationLayer(tree, files, { remote, ...install }),
    })),
  );
}
