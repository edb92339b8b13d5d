/**
 * The ConfigMaps of the repository a Flux HelmRelease may take values from
 * (`spec.valuesFrom`): a `kind: ConfigMap` document, or a kustomize
 * `configMapGenerator` entry (its `files` and `literals`), of that name in
 * the HelmRelease's namespace ("in the same namespace as the HelmRelease",
 * fluxcd/helm-controller v1.6.3 `docs/spec/v2/helmreleases.md`, "Values
 * references"). A generator is found by the name its entry gives, the name
 * the HelmRelease refers to.
 */
import { posix } from 'node:path';
import { isKustomizationFile } from '../../../kustomize/roots';
import type { RepoTree } from '../../../repo/tree';
import {
  asKubernetesObject,
  getIn,
  isPlainObject,
  parseYamlDocuments,
} from '../../../repo/yamlObjects';
import { stringField } from './helmRelease';
import { readKustomizationFile } from '../../../kustomize/namedFile';

/**
 * A file the finder read, with its text.
 *
 * @public
 */
export interface RepositoryFile {
  /** Repository path. */
  path: string;
  /** Its text. */
  text: string;
}

/** One key of a ConfigMap found in the repository, or why it cannot be read. */
export type ConfigMapKey =
  { found: string; text: string } | { unread?: string };

interface Candidate {
  /** Where it is declared, in the reviewer's words. */
  where: string;
  text(key: string): Promise<ConfigMapKey>;
}

/** Namespaces match when equal or when either is left to the applier (unset). */
export function sameNamespace(a: string | undefined, b: string | undefined) {
  return a === undefined || b === undefined || a === b;
}

/** The value of `key` among `key=value` items (kustomize's literals, `files` as `key=path`). */
function keyed(items: unknown, key: string, keyOf: (item: string) => string) {
  for (const item of Array.isArray(items) ? items : []) {
    if (typeof item !== 'string') continue;
    const eq = item.indexOf('=');
    const itemKey = eq > 0 ? item.slice(0, eq) : keyOf(item);
    if (itemKey === key) return eq > 0 ? item.slice(eq + 1) : item;
  }
  return undefined;
}

function generatorCandidates(
  tree: RepoTree,
  file: string,
  kustomization: unknown,
  name: string,
  namespace: string | undefined,
): Candidate[] {
  const generators = getIn(kustomization, 'configMapGenerator');
  return (Array.isArray(generators) ? generators : [])
    .filter(
      entry =>
        getIn(entry, 'name') === name &&
        sameNamespace(
          stringField(getIn(entry, 'namespace')) ??
            stringField(getIn(kustomization, 'namespace')),
          namespace,
        ),
    )
    .map(entry => ({
      where: `the configMapGenerator entry \`${name}\` in \`${file}\``,
      async text(key: string): Promise<ConfigMapKey> {
        const literal = keyed(getIn(entry, 'literals'), key, () => '');
        if (literal !== undefined)
          return { found: `\`${file}\``, text: literal };
        const source = keyed(getIn(entry, 'files'), key, posix.basename);
        if (source === undefined) return { unread: `no key \`${key}\`` };
        const read = await readKustomizationFile(tree, file, source);
        return 'unread' in read
          ? { unread: `\`${source}\` ${read.unread}` }
          : { found: `\`${read.path}\``, text: read.text };
      },
    }));
}

function documentCandidates(
  file: RepositoryFile,
  name: string,
  namespace: string | undefined,
): Candidate[] {
  const { documents } = parseYamlDocuments(file.path, file.text);
  return documents.flatMap(document => {
    const object = asKubernetesObject(document.value);
    if (
      object?.kind !== 'ConfigMap' ||
      object.metadata.name !== name ||
      !sameNamespace(stringField(object.metadata.namespace), namespace)
    ) {
      return [];
    }
    return [
      {
        where: `ConfigMap \`${name}\` in \`${file.path}\``,
        async text(key: string): Promise<ConfigMapKey> {
          const value = getIn(object, 'data', key);
          return typeof value === 'string'
            ? { found: `\`${file.path}\``, text: value }
            : { unread: `no key \`${key}\`` };
        },
      },
    ];
  });
}

/**
 * The text of `key` of the ConfigMap `name` in `namespace` among `files`;
 * `{}` when the repository declares no such ConfigMap (it may be made
 * outside it), `unread` when it cannot tell which, or the key is not there.
 */
export async function valuesConfigMapKey(
  tree: RepoTree,
  files: readonly RepositoryFile[],
  name: string,
  namespace: string | undefined,
  key: string,
): Promise<ConfigMapKey> {
  const candidates: Candidate[] = [];
  for (const file of files) {
    if (!file.text.includes(name)) continue;
    if (isKustomizationFile(file.path)) {
      const { documents } = parseYamlDocuments(file.path, file.text);
      const kustomization = documents[0]?.value;
      if (isPlainObject(kustomization)) {
        candidates.push(
          ...generatorCandidates(
            tree,
            file.path,
            kustomization,
            name,
            namespace,
          ),
        );
      }
    } else {
      candidates.push(...documentCandidates(file, name, namespace));
    }
  }
  if (candidates.length === 0) return {};
  if (candidates.length > 1) {
    return {
      unread: `declared ${candidates.length} times (${candidates.map(c => c.where).join(', ')})`,
    };
  }
  return candidates[0].text(key);
}
