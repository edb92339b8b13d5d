/**
 * What a sparse checkout must also hold beyond the folders a run names: the
 * folders its files say the run depends on (a cluster's Flux Kustomization
 * applying `./infrastructure/controllers`, its kustomization listing
 * `../../infrastructure/gpu-operator`), followed a few rounds deep, each
 * round from the folders the last one added. The GPU Operator a Flux
 * repository installs from `infrastructure/` decides what a request can
 * run: a checkout of the cluster's folder alone missed it, and a MIG request
 * went out on an operator whose MIG manager was off.
 *
 * @public
 */
export interface SparseReach {
  /** The folders whose files say what else the run must see. */
  from: string[];
  /** The folders (repository-relative) the files of `folders` in the checkout at `workDir` depend on. */
  referenced(workDir: string, folders: readonly string[]): Promise<string[]>;
}

/** Rounds of references followed: a cluster's applier, its kustomization, that one's bases. */
export const REACH_ROUNDS = 4;
