/**
 * Chart folders of the repository itself (a `Chart.yaml`, its `values.yaml`
 * and Go-templated `templates/`), and what renders each: an Argo CD
 * Application whose source is the folder (`spec.source.path`: Argo CD takes
 * a folder holding a `Chart.yaml` as a Helm chart,
 * https://argo-cd.readthedocs.io/en/release-3.3/user-guide/tool_detection/),
 * a Flux HelmRelease whose `spec.chart.spec.chart` is the folder's path in a
 * GitRepository or Bucket source
 * (https://fluxcd.io/flux/components/helm/helmreleases/#chart-template), or
 * a kustomize `helmCharts` entry without `repo`, which inflates the chart
 * found at `<helmGlobals.chartHome, default charts>/<name>` beside the
 * kustomization (kubernetes-sigs/kustomize kustomize/v5.8.1
 * `plugin/builtin/helmchartinflationgenerator`).
 *
 * Such a folder may be an upstream chart vendored as it is (NVIDIA's
 * `nvidia-device-plugin`, the `gpu-operator`), an umbrella chart that
 * depends on one (its values nested under the dependency's name or alias),
 * or a team's own chart whose templates render the device plugin from an
 * image named only in its values (`chartFolderDevicePlugins.ts`).
 */
import { posix } from 'node:path';
import { parse } from 'yaml';
import type { Kustomization } from '../../../kustomize/kustomization';
import type { RepoTree } from '../../../repo/tree';
import {
  getIn,
  isPlainObject,
  type PlainObject,
  parseYamlDocuments,
} from '../../../repo/yamlObjects';
import {
  argoSources,
  isArgoApplication,
  sourceLayers,
} from './argoApplicationReleases';
import { fluxRelease, isFluxHelmRelease } from './fluxHelmRelease';
import { entryLayers } from './kustomizeHelmChartReleases';
import {
  pinnedVersion,
  stringField,
  type FoundObject,
  type HelmRelease,
} from './helmRelease';
import { readValue, type ValuesLayer } from './valuesLayer';
import type { RepositoryFile } from './valuesConfigMaps';
import { anyOfWords } from '../../../repo/anyOfWords';

/**
 * Words of a file that may render a chart folder of the repository (an Argo
 * CD Application, a Flux source, a kustomize `helmCharts` entry); also
 * `git grep` needles (`GPU_STACK_NEEDLES`).
 */
export const LOCAL_CHART_APPLIER_WORDS = [
  'argoproj.io',
  'GitRepository',
  'Bucket',
  'helmCharts',
];

/** Text of a file that may render a chart folder of the repository. */
export const LOCAL_CHART_APPLIER = anyOfWords(LOCAL_CHART_APPLIER_WORDS);

/** A chart this folder's `Chart.yaml` depends on, and the key its values sit under. */
interface ChartDependency {
  name: string;
  key: string;
  /** Its `condition`: the values path that turns it off when false. */
  condition?: string;
}

/** A chart folder of the repository, as one applier renders it. */
export interface LocalChart {
  /** Repository path of the folder. */
  dir: string;
  /** `Chart.yaml`'s name. */
  name: string;
  dependencies: ChartDependency[];
  /**
   * The release rendering it: its applier's value sources, highest first,
   * then the folder's own `values.yaml` (the chart's defaults, as the team
   * keeps them).
   */
  release: Omit<HelmRelease, 'chart'>;
  /** Set for a kustomize `helmCharts` entry: the chart name it names, which `kustomizeHelmChartReleases` already reads by. */
  entryName?: string;
}

type Applier = {
  dir: string;
  entryName?: string;
  release: (chart: string) => Promise<Omit<HelmRelease, 'chart'>>;
};

const folderOf = (path: string) =>
  posix.normalize(path).replace(/^\.\/|\/$/g, '');

function argoAppliers(found: FoundObject): Applier[] {
  const { object, file } = found;
  const name = [object.metadata.namespace, object.metadata.name]
    .filter(part => typeof part === 'string')
    .join('/');
  return argoSources(object).flatMap(([field, source]) => {
    const path = stringField(getIn(source, 'path'));
    if (!path || getIn(source, 'chart') !== undefined) return [];
    return [
      {
        dir: folderOf(path),
        release: async () => ({
          file,
          declaredBy: `Argo CD Application \`${name}\` (\`${field}.path\`)`,
          version: pinnedVersion(getIn(source, 'targetRevision')),
          namespace: stringField(
            getIn(object, 'spec', 'destination', 'namespace'),
          ),
          layers: sourceLayers(
            f => `\`${field}.${f}\` of Application \`${name}\` in \`${file}\``,
            getIn(source, 'helm'),
          ),
        }),
      },
    ];
  });
}

/**
 * The folder a Flux HelmRelease installs its chart from, when its source is
 * a GitRepository or Bucket (`spec.chart.spec.chart` is then a path in it),
 * not a Helm or OCI repository's chart name.
 */
export function fluxChartFolder(release: PlainObject): string | undefined {
  const chartSpec = getIn(release, 'spec', 'chart', 'spec');
  const path = stringField(getIn(chartSpec, 'chart'));
  const source = getIn(chartSpec, 'sourceRef', 'kind');
  if (!path || (source !== 'GitRepository' && source !== 'Bucket')) {
    return undefined;
  }
  return folderOf(path);
}

/**
 * The chart folders a kustomization's `helmCharts` entries without `repo`
 * inflate: `<helmGlobals.chartHome, default charts>/<name>` beside it.
 */
export function kustomizeChartFolders(
  kustomization: Kustomization,
): { dir: string; entry: PlainObject; name: string }[] {
  const home = stringField(
    getIn(kustomization.value, 'helmGlobals', 'chartHome'),
  );
  return kustomization.helmCharts.flatMap(entry => {
    const name = stringField(entry.name);
    if (!name || stringField(entry.repo)) return [];
    const dir = folderOf(
      posix.join(kustomization.folder, home ?? 'charts', name),
    );
    return [{ dir, entry, name }];
  });
}

function fluxAppliers(
  tree: RepoTree,
  found: FoundObject,
  files: readonly RepositoryFile[],
): Applier[] {
  const dir = fluxChartFolder(found.object);
  if (dir === undefined) return [];
  return [
    {
      dir,
      release: async chart => fluxRelease(tree, found, files, chart, undefined),
    },
  ];
}

function kustomizeAppliers(
  tree: RepoTree,
  kustomization: Kustomization,
): Applier[] {
  return kustomizeChartFolders(kustomization).map(({ dir, entry, name }) => ({
    dir,
    entryName: name,
    release: async () => ({
      file: kustomization.file,
      declaredBy: `the kustomize helmCharts entry \`${name}\``,
      version: pinnedVersion(entry.version),
      namespace: kustomization.namespace ?? stringField(entry.namespace),
      layers: await entryLayers(tree, kustomization.file, name, entry),
    }),
  }));
}

function dependenciesOf(chart: unknown): ChartDependency[] {
  const list = getIn(chart, 'dependencies');
  return (Array.isArray(list) ? list : []).flatMap(dep => {
    const name = stringField(getIn(dep, 'name'));
    if (!name) return [];
    const condition = stringField(getIn(dep, 'condition'));
    return [
      {
        name,
        key: stringField(getIn(dep, 'alias')) ?? name,
        ...(condition ? { condition } : {}),
      },
    ];
  });
}

/** The folder's own `values.yaml` as the lowest value layer. */
async function chartValuesLayer(
  tree: RepoTree,
  dir: string,
): Promise<ValuesLayer> {
  const path = `${dir}/values.yaml`;
  const text = await tree.readFile(path);
  const where = `\`${path}\` (the chart folder's values)`;
  if (text === undefined) return { where, form: 'values', content: 'absent' };
  const { documents, error } = parseYamlDocuments(path, text);
  return error
    ? {
        where: `${where}, which does not parse: ${error}`,
        form: 'values',
        content: 'hidden',
      }
    : { where, form: 'values', content: { values: documents[0]?.value ?? {} } };
}

async function chartYaml(tree: RepoTree, dir: string): Promise<unknown> {
  const text = await tree.readFile(`${dir}/Chart.yaml`);
  if (text === undefined) return undefined;
  try {
    return parse(text);
  } catch {
    return undefined;
  }
}

/**
 * Every chart folder of the repository that `objects` (Argo CD
 * Applications, Flux HelmReleases) or `kustomizations` render, once per
 * applier; a path naming no folder with a `Chart.yaml` is not a chart here
 * (another repository's, or plain manifests).
 */
export async function localCharts(
  tree: RepoTree,
  files: readonly RepositoryFile[],
  objects: readonly FoundObject[],
  kustomizations: readonly Kustomization[],
): Promise<LocalChart[]> {
  const appliers = [
    ...objects.flatMap(found => {
      if (isArgoApplication(found.object)) return argoAppliers(found);
      if (isFluxHelmRelease(found.object))
        return fluxAppliers(tree, found, files);
      return [];
    }),
    ...kustomizations.flatMap(k => kustomizeAppliers(tree, k)),
  ];
  const charts: LocalChart[] = [];
  for (const applier of appliers) {
    // A path out of the repository is no folder of it.
    if (applier.dir.startsWith('..') || posix.isAbsolute(applier.dir)) continue;
    const chart = await chartYaml(tree, applier.dir);
    const name = stringField(getIn(chart, 'name'));
    if (!name) continue;
    const release = await applier.release(name);
    charts.push({
      dir: applier.dir,
      name,
      dependencies: dependenciesOf(chart),
      release: {
        ...release,
        declaredBy: `${release.declaredBy}, rendering the chart folder \`${applier.dir}\``,
        layers: [...release.layers, await chartValuesLayer(tree, applier.dir)],
      },
      ...(applier.entryName ? { entryName: applier.entryName } : {}),
    });
  }
  return charts;
}

/** A layer's values under `key` (a dependency's), as Helm passes them to that subchart. */
function nestedLayer(layer: ValuesLayer, key: string): ValuesLayer {
  if (typeof layer.content === 'string') return layer;
  const values = getIn(layer.content.values, key);
  return {
    ...layer,
    where: `\`${key}\` of ${layer.where}`,
    content: isPlainObject(values) ? { values } : 'absent',
  };
}

/**
 * The local chart as a release of `chart`: the folder is that chart
 * (vendored), or depends on it and leaves it on (its `condition` not set
 * false); undefined otherwise.
 */
export function localChartRelease(
  local: LocalChart,
  chart: string,
): HelmRelease | undefined {
  if (local.name === chart) {
    // `kustomizeHelmChartReleases` reads an entry by the name it gives.
    if (local.entryName === chart) return undefined;
    return { chart, ...local.release };
  }
  const dependency = local.dependencies.find(d => d.name === chart);
  if (!dependency) return undefined;
  if (dependency.condition) {
    const on = readValue(local.release.layers, dependency.condition.split('.'));
    if (on.state === 'set' && on.value === false) return undefined;
  }
  return {
    chart,
    ...local.release,
    declaredBy: `${local.release.declaredBy} (its dependency \`${dependency.key}\`)`,
    layers: local.release.layers.map(l => nestedLayer(l, dependency.key)),
  };
}
