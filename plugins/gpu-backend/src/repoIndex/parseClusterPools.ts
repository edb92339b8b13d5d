/**
 * Parses the NodePool files of one cluster against only the device-plugin and
 * MIG config entries their pools name, which the refresh needs to know which
 * pools a config change touches.
 */
import type { PoolState } from '@gpu-gitops/plugin-gpu-common';
import type { SkippedFile } from '@gpu-gitops/plugin-gpu-node';
import { parsePoolFiles, type ParseContext } from './fileParsers';
import type { IndexStore, PoolFile } from './indexStore';

const DEVICE_PLUGIN_LABEL =
  /nvidia\.com\/device-plugin\.config['"]?\s*:\s*['"]?([A-Za-z0-9._-]+)/g;
const MIG_LABEL =
  /nvidia\.com\/mig\.config['"]?\s*:\s*['"]?([A-Za-z0-9._+-]+)/g;

function labelValues(text: string, pattern: RegExp): string[] {
  return [...new Set([...text.matchAll(pattern)].map(m => m[1]))];
}

/**
 * Parses NodePool files of one cluster with just the config entries their
 * labels name. The labels are found by a quick text scan and checked
 * against the parse; a miss (unusual YAML) is parsed again with the
 * entries the pools really name.
 */
export async function parseClusterPools(
  ctx: ParseContext,
  store: IndexStore,
  cluster: string,
  texts: Map<string, string>,
): Promise<Map<string, PoolFile>> {
  const guessed = new Map(
    [...texts].map(([path, text]) => [
      path,
      {
        dp: labelValues(text, DEVICE_PLUGIN_LABEL),
        mig: labelValues(text, MIG_LABEL),
      },
    ]),
  );
  const union = (pick: (g: { dp: string[]; mig: string[] }) => string[]) => [
    ...new Set([...guessed.values()].flatMap(pick)),
  ];
  // One reader call per file: the reader pairs every NodePool with every
  // NodeOverlay it is given (quadratic), and a pool's overlays live in its file.
  const parse = async (dp: string[], mig: string[]) => {
    const configs = store.configFilesFor(cluster, dp, mig);
    const out = new Map<
      string,
      { pools: PoolState[]; skipped: SkippedFile[] }
    >();
    for (const [path, text] of texts) {
      const parsed = await parsePoolFiles(
        ctx,
        cluster,
        new Map([[path, text]]),
        configs,
      );
      out.set(path, parsed.get(path)!);
    }
    return out;
  };
  const dpNames = union(g => g.dp);
  const migNames = union(g => g.mig);
  let parsed = await parse(dpNames, migNames);
  const usedDp = [...parsed.values()].flatMap(f =>
    f.pools.flatMap(p => p.deviceConfigName ?? []),
  );
  const usedMig = [...parsed.values()].flatMap(f =>
    f.pools.flatMap(p => p.migConfigName ?? []),
  );
  if (
    usedDp.some(n => !dpNames.includes(n)) ||
    usedMig.some(n => !migNames.includes(n))
  ) {
    parsed = await parse(
      [...new Set([...dpNames, ...usedDp])],
      [...new Set([...migNames, ...usedMig])],
    );
  }
  const out = new Map<string, PoolFile>();
  for (const [path, file] of parsed) {
    const labels = guessed.get(path)!;
    out.set(path, {
      cluster,
      pools: file.pools,
      devicePluginConfigs: [
        ...new Set([
          ...labels.dp,
          ...file.pools.flatMap(p => p.deviceConfigName ?? []),
        ]),
      ],
      migConfigs: [
        ...new Set([
          ...labels.mig,
          ...file.pools.flatMap(p => p.migConfigName ?? []),
        ]),
      ],
      skipped: file.skipped,
    });
  }
  return out;
}
