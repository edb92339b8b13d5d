import {
  buildKustomizationRoot,
  readKustomizationGraph,
  type BuiltObject,
} from '@gpu-gitops/plugin-gpu-node';

/** Every kustomization root of a checked-out tree, built with the real kustomize. */
export async function buildEveryRootForTests(
  dir: string,
): Promise<Map<string, BuiltObject[]>> {
  const graph = await readKustomizationGraph(dir);
  const built = new Map<string, BuiltObject[]>();
  for (const root of graph.roots) {
    built.set(root, (await buildKustomizationRoot(dir, graph, root)).objects);
  }
  return built;
}
