import {
  BuiltObject,
  findKustomizeBinary,
  foldersBuiltBy,
  isKustomizeBuildError,
  KustomizationGraph,
} from '../kustomize';
import { buildKustomizationRoot } from '../kustomize/buildRoot';
import { runBounded } from '../runBounded';
import type { Finding } from './findings';

/** What one kustomize root built: its objects, or why it did not build. */
export interface BuiltRoot {
  /** Repository-relative folder, '.' for the top. */
  folder: string;
  /** Its kustomization file. */
  file: string;
  /** Every kustomization folder it builds from (itself included). */
  folders: string[];
  objects: BuiltObject[];
  /** kustomize's message when the root does not build (then `objects` is empty). */
  error?: string;
  /** What the build left out, for the reviewer (not a finding). */
  note?: string;
}

export interface BuildRootsOptions {
  env?: Record<string, string | undefined>;
  timeoutMs?: number;
  /**
   * Inflate Helm charts (kustomize `--enable-helm`; needs helm and the
   * charts' repositories). Off: roots with charts are built without them.
   */
  enableHelm?: boolean;
}

/** Builds at a time: kustomize is single-threaded and quick; CI has few cores. */
const PARALLEL_BUILDS = 2;

/**
 * Runs the real `kustomize build` on every root, the way Argo CD or Flux
 * would apply the tree. A root that does not build is a `kustomize-build`
 * finding with kustomize's own words; a missing kustomize throws
 * (KustomizeNotFoundError): no build, no verdict.
 */
export async function buildRoots(
  dir: string,
  graph: KustomizationGraph,
  findings: Finding[],
  options: BuildRootsOptions = {},
): Promise<BuiltRoot[]> {
  // Fail before any work (and even for a tree of one root) when kustomize is missing.
  findKustomizeBinary(options.env ?? process.env);
  const roots: BuiltRoot[] = graph.roots.map(folder => ({
    folder,
    file: graph.folders.get(folder)!.file,
    folders: foldersBuiltBy(graph, folder),
    objects: [],
  }));
  await runBounded(
    roots.map(root => async () => {
      try {
        const built = await buildKustomizationRoot(
          dir,
          graph,
          root.folder,
          options,
        );
        root.objects = built.objects;
        if (built.chartsLeftOut.length > 0) {
          root.note = `${root.folder} was built without the Helm charts of ${built.chartsLeftOut.join(', ')}: kustomize inflates them only with --enable-helm, a helm binary and the charts' repositories (pass --enable-helm where those are at hand)`;
        }
      } catch (error) {
        if (!isKustomizeBuildError(error)) throw error;
        root.error = error.detail;
        findings.push({
          file: root.file,
          object: '',
          rule: 'kustomize-build',
          message: `kustomize build ${root.folder} fails: ${error.detail}`,
        });
      }
    }),
    PARALLEL_BUILDS,
  );
  return roots;
}

/** Whether a repository path lies in one of the folders (a '.' folder holds everything). */
export function isUnderFolders(path: string, folders: string[]): boolean {
  return folders.some(f => f === '.' || path.startsWith(`${f}/`));
}
