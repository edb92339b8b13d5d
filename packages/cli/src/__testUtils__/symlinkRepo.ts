import { mkdirSync } from 'node:fs';
import path from 'node:path';
import { makeWorkdir, requestYaml } from './runInTemp';

/** An empty kustomization: what makes a cluster's GPU folder "set up for GPUs". */
export const EMPTY_KUSTOMIZATION =
  'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\nresources: []\n';

/**
 * The symbolic links a repository may hold where the CLI would write:
 * [case, the link's path in the repository, whether its target exists].
 * Every command that writes into a repository refuses all of them.
 */
export const SYMLINK_CASES: Array<[string, string, boolean]> = [
  ['a dangling pool file', 'clusters/default/gpu/nodepools/gpu-l4.yaml', false],
  ['a dangling app file', 'apps/ml/llm-inference/deployment.yaml', false],
  ['a dangling request file', 'requests/ml/llm-inference.yaml', false],
  ['a parent folder linked to an outside folder', 'apps/ml', true],
];

/**
 * A working directory with `req.yaml` (a request whose writes hit every
 * {@link SYMLINK_CASES} path) and an empty `outside` folder; `target` is what
 * the link points at: `outside` itself, or a missing file in it.
 */
export function symlinkWorkdir(targetExists: boolean): {
  dir: string;
  outside: string;
  target: string;
} {
  const dir = makeWorkdir({
    'req.yaml': requestYaml(
      'model: l4\nsharing: exclusive\nreplicas: 2\nvramGiB: 16',
    ),
  });
  const outside = path.join(dir, 'outside');
  mkdirSync(outside);
  const target = targetExists ? outside : path.join(outside, 'target.yaml');
  return { dir, outside, target };
}
