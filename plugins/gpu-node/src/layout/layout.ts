import Handlebars from 'handlebars';
import { posix } from 'path';
import { GpuInputError } from '@gpu-gitops/plugin-gpu-common';
import { entryPattern, type EntryPattern } from './layoutPattern';
import { assertLayoutName, isDns1123Label, LayoutNameKind } from './names';

/**
 * Where each generated file lives in the GitOps repository, as handlebars path
 * templates. Organisations override single entries; the default is the one
 * docs/architecture.md and docs/reviewers.md ("GitOps repository layout") show.
 *
 * @public
 */
export interface RepoLayout {
  /** Kustomization of a cluster's GPU folder. Variables: cluster. */
  clusterKustomization: string;
  /** NodePool (+ NodeOverlays, + EC2NodeClass) file. Variables: cluster, pool. */
  nodePool: string;
  /** One named device-plugin config. Variables: cluster, config. */
  devicePluginConfig: string;
  /** The mig-parted config file. Variables: cluster. */
  migConfig: string;
  /** Folder of one workload (manifests or patch + kustomization.yaml). Variables: namespace, component. */
  workloadDir: string;
  /** The GpuRequest itself, for audit and re-rendering. Variables: namespace, name. */
  request: string;
}

export const defaultRepoLayout: RepoLayout = Object.freeze({
  clusterKustomization: 'clusters/{{cluster}}/gpu/kustomization.yaml',
  nodePool: 'clusters/{{cluster}}/gpu/nodepools/{{pool}}.yaml',
  devicePluginConfig: 'clusters/{{cluster}}/gpu/device-plugin/{{config}}.yaml',
  migConfig: 'clusters/{{cluster}}/gpu/mig/config.yaml',
  workloadDir: 'apps/{{namespace}}/{{component}}',
  request: 'requests/{{namespace}}/{{name}}.yaml',
});

/** @public */
export type LayoutEntry = keyof RepoLayout;

/** Variables each template may use, and what kind of name each one holds. */
export const LAYOUT_VARIABLES: Record<
  LayoutEntry,
  Record<string, LayoutNameKind>
> = {
  clusterKustomization: { cluster: 'label' },
  nodePool: { cluster: 'label', pool: 'subdomain' },
  devicePluginConfig: { cluster: 'label', config: 'subdomain' },
  migConfig: { cluster: 'label' },
  workloadDir: { namespace: 'label', component: 'label' },
  request: { namespace: 'label', name: 'label' },
};

const LAYOUT_ENTRIES = Object.keys(LAYOUT_VARIABLES) as LayoutEntry[];

/**
 *  A layout whose templates are compiled once and render validated, normalised paths.
 *
 * @public
 */
export interface ResolvedRepoLayout {
  readonly templates: Readonly<RepoLayout>;
  render(entry: LayoutEntry, values: Record<string, string>): string;
}

const compiledCache = new WeakMap<object, ResolvedRepoLayout>();
/** The default layout, compiled on first use. */
let defaultResolved: ResolvedRepoLayout | undefined;

function layoutError(path: string, rule: string, message: string) {
  return new GpuInputError([{ path, rule, message }]);
}

/**
 * Normalises a rendered path to repository-relative POSIX form and refuses
 * anything that could escape the repository (absolute paths, `..`).
 */
export function normaliseRepoPath(raw: string, what = 'path'): string {
  const slashed = raw.replace(/\\/g, '/');
  if (slashed.startsWith('/') || /^[a-zA-Z]:/.test(slashed)) {
    throw layoutError(
      what,
      'path-absolute',
      `${what} "${raw}" must be relative to the repository root`,
    );
  }
  if (slashed.split('/').includes('..')) {
    throw layoutError(
      what,
      'path-escape',
      `${what} "${raw}" must not contain ".." segments`,
    );
  }
  const normalised = posix.normalize(slashed).replace(/\/+$/, '');
  if (normalised === '' || normalised === '.' || normalised.startsWith('../')) {
    throw layoutError(
      what,
      'path-escape',
      `${what} "${raw}" does not name a file inside the repository`,
    );
  }
  return normalised;
}

/**
 * Merges overrides into the default layout and compiles every template once
 * (handlebars strict mode: an unknown variable is an error, not an empty string).
 * Each template is test-rendered with sample names so a broken override fails here.
 *
 * @public
 */
export function resolveLayout(
  overrides?: Partial<RepoLayout> | ResolvedRepoLayout,
): ResolvedRepoLayout {
  if (overrides && isResolvedLayout(overrides)) return overrides;
  if (!overrides) {
    defaultResolved ??= compileLayout({});
    return defaultResolved;
  }
  return compileLayout(overrides);
}

function compileLayout(overrides: Partial<RepoLayout>): ResolvedRepoLayout {
  const templates: RepoLayout = { ...defaultRepoLayout };
  for (const [key, value] of Object.entries(overrides)) {
    if (!LAYOUT_ENTRIES.includes(key as LayoutEntry)) {
      throw layoutError(
        `layout.${key}`,
        'unknown-key',
        `unknown layout entry "${key}" (known: ${LAYOUT_ENTRIES.join(', ')})`,
      );
    }
    if (value === undefined) continue;
    if (typeof value !== 'string' || value.trim() === '') {
      throw layoutError(
        `layout.${key}`,
        'type',
        `layout.${key} must be a non-empty path template`,
      );
    }
    templates[key as LayoutEntry] = value;
  }

  const compiled = {} as Record<LayoutEntry, HandlebarsTemplateDelegate>;
  for (const entry of LAYOUT_ENTRIES) {
    try {
      compiled[entry] = Handlebars.compile(templates[entry], {
        strict: true,
        noEscape: true,
      });
    } catch (e) {
      throw layoutError(
        `layout.${entry}`,
        'template',
        `layout.${entry} is not a valid template: ${(e as Error).message}`,
      );
    }
  }

  const resolved: ResolvedRepoLayout = {
    templates: Object.freeze(templates),
    render(entry, values) {
      const variables = LAYOUT_VARIABLES[entry];
      const context: Record<string, string> = {};
      for (const [name, kind] of Object.entries(variables)) {
        assertLayoutName(name, values[name], kind);
        context[name] = values[name];
      }
      let text: string;
      try {
        text = compiled[entry](context);
      } catch (e) {
        throw layoutError(
          `layout.${entry}`,
          'template',
          `layout.${entry} uses a variable it does not have (allowed: ${Object.keys(variables).join(', ')}): ${(e as Error).message}`,
        );
      }
      return normaliseRepoPath(text, `layout.${entry}`);
    },
  };
  compiledCache.set(resolved, resolved);

  // Fail early on overrides that reference unknown variables or escape the repository.
  for (const entry of LAYOUT_ENTRIES) {
    resolved.render(entry, sampleValues(entry));
  }
  return resolved;
}

function isResolvedLayout(value: object): value is ResolvedRepoLayout {
  return compiledCache.has(value);
}

function sampleValues(entry: LayoutEntry): Record<string, string> {
  return Object.fromEntries(
    Object.keys(LAYOUT_VARIABLES[entry]).map(name => [name, `sample-${name}`]),
  );
}

/** @public */
export type LayoutInput = Partial<RepoLayout> | ResolvedRepoLayout | undefined;

/**
 *  `clusters/<cluster>/gpu/kustomization.yaml`
 *
 * @public
 */
export function clusterKustomizationPath(
  layout: LayoutInput,
  cluster: string,
): string {
  return resolveLayout(layout).render('clusterKustomization', { cluster });
}

/**
 * The folder holding everything of one cluster (`clusters/<cluster>`): the
 * parent of the cluster's GPU folder, where hand-written NodePools live too.
 * The GPU folder itself when the layout puts it at the repository root.
 */
export function clusterScopePath(layout: LayoutInput, cluster: string): string {
  return clusterScopes(resolveLayout(layout)).scope(cluster);
}

/**
 * The cluster whose folder (`clusterScopePath`) holds `path`, or undefined
 * when none does. Each folder name on the path is tried as the cluster, so a
 * cluster folder named after its cluster (`clusters/<cluster>`) is found; a
 * layout that gives every cluster the same folder attributes nothing.
 */
export function clusterOwningPath(
  layout: LayoutInput,
  path: string,
): string | undefined {
  return clusterScopes(resolveLayout(layout)).owner(path);
}

/**
 * True when `path` may apply to `cluster`: it is in the cluster's folder, or
 * in no cluster's (a shared folder such as `infrastructure/`, which every
 * cluster applies). Another cluster's folder is that cluster's.
 */
export function pathReachesCluster(
  layout: LayoutInput,
  cluster: string,
  path: string,
): boolean {
  const owner = clusterOwningPath(layout, path);
  return owner === undefined || owner === cluster;
}

/** The cluster folders of one layout: each cluster's, and which holds a path. */
interface ClusterScopes {
  scope(cluster: string): string;
  owner(path: string): string | undefined;
}

function renderClusterScope(
  resolved: ResolvedRepoLayout,
  cluster: string,
): string {
  const gpuFolder = posix.dirname(clusterKustomizationPath(resolved, cluster));
  const parent = posix.dirname(gpuFolder);
  return parent === '.' ? gpuFolder : parent;
}

/**
 * Asked for every folder of every path when a whole repository is
 * classified (the allocation index: 100k files, each cluster), so a
 * template that only puts the name in its place once — checked with three
 * sample names — is answered by comparing the path with the text around
 * the name, without a handlebars render or a string built per folder; any
 * other template is rendered each time.
 */
function compileClusterScopes(resolved: ResolvedRepoLayout): ClusterScopes {
  const render = (cluster: string) => renderClusterScope(resolved, cluster);
  const sample = 'gpugitopssample';
  const parts = render(sample).split(sample);
  const substitute = (cluster: string) => parts.join(cluster);
  const plain =
    parts.length === 2 &&
    ['a', 'prod-eu-1', 'x9'].every(n => render(n) === substitute(n));
  const folders = (path: string) =>
    path.split('/').slice(0, -1).filter(isDns1123Label);
  if (!plain) {
    const shared = render('a') === render('b');
    return {
      scope: render,
      owner: path =>
        shared
          ? undefined
          : folders(path).find(f => path.startsWith(`${render(f)}/`)),
    };
  }
  const [before, after] = parts;
  return {
    scope: cluster =>
      isDns1123Label(cluster) ? substitute(cluster) : render(cluster),
    owner: path =>
      path.startsWith(before)
        ? folders(path).find(
            f =>
              path.startsWith(f, before.length) &&
              path.startsWith(`${after}/`, before.length + f.length),
          )
        : undefined,
  };
}

/** `compileClusterScopes` by layout: compiled once. */
const compiledScopes = new WeakMap<ResolvedRepoLayout, ClusterScopes>();

function clusterScopes(resolved: ResolvedRepoLayout): ClusterScopes {
  let scopes = compiledScopes.get(resolved);
  if (!scopes) {
    scopes = compileClusterScopes(resolved);
    compiledScopes.set(resolved, scopes);
  }
  return scopes;
}

/** `clusters/<cluster>/gpu/nodepools/<pool>.yaml` */
export function nodePoolPath(
  layout: LayoutInput,
  cluster: string,
  pool: string,
): string {
  return resolveLayout(layout).render('nodePool', { cluster, pool });
}

/** `clusters/<cluster>/gpu/device-plugin/<config>.yaml` */
export function devicePluginConfigPath(
  layout: LayoutInput,
  cluster: string,
  config: string,
): string {
  return resolveLayout(layout).render('devicePluginConfig', {
    cluster,
    config,
  });
}

/**
 *  `clusters/<cluster>/gpu/mig/config.yaml`
 *
 * @public
 */
export function migConfigPath(layout: LayoutInput, cluster: string): string {
  return resolveLayout(layout).render('migConfig', { cluster });
}

/** `apps/<namespace>/<component>` (a folder, no trailing slash). */
export function workloadDirPath(
  layout: LayoutInput,
  namespace: string,
  component: string,
): string {
  return resolveLayout(layout).render('workloadDir', { namespace, component });
}

/** `requests/<namespace>/<name>.yaml` */
export function requestPath(
  layout: LayoutInput,
  namespace: string,
  name: string,
): string {
  return resolveLayout(layout).render('request', { namespace, name });
}

/**
 * Matches a repository path against a layout entry (variables in `known`
 * fixed) and returns the values of the other variables, or undefined. With
 * `folder: true` the entry is a folder and `path` may lie anywhere below it.
 */
export function matchLayoutValues(
  layout: LayoutInput,
  entry: LayoutEntry,
  known: Record<string, string>,
  path: string,
  options: { folder?: boolean } = {},
): Record<string, string> | undefined {
  return layoutEntryPattern(layout, entry, known).match(path, options)?.values;
}

/**
 * Matches a repository path against a layout entry and returns the value of
 * `variable` (others fixed by `known`), or undefined. Used to find existing
 * entries (pools, device-plugin configs) whatever the layout.
 */
export function matchLayoutPath(
  layout: LayoutInput,
  entry: LayoutEntry,
  known: Record<string, string>,
  variable: string,
  path: string,
): string | undefined {
  const { [variable]: _ignored, ...fixed } = known;
  return matchLayoutValues(layout, entry, fixed, path)?.[variable];
}

/**
 * The folder prefix (ending in `/`, or empty) under which all entries of
 * `entry` live whatever the values of `variable` and of every variable not
 * in `known`: the static text before the first such variable.
 *
 * @public
 */
export function layoutPrefix(
  layout: LayoutInput,
  entry: LayoutEntry,
  known: Record<string, string>,
  variable: string,
): string {
  const { [variable]: _ignored, ...fixed } = known;
  return layoutEntryPattern(layout, entry, fixed).prefix;
}

/** The compiled pattern of `entry` with `known` fixed (see layoutPattern.ts). */
export function layoutEntryPattern(
  layout: LayoutInput,
  entry: LayoutEntry,
  known: Record<string, string>,
): EntryPattern {
  return entryPattern(
    resolveLayout(layout),
    entry,
    Object.keys(LAYOUT_VARIABLES[entry]),
    known,
  );
}
