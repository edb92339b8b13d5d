/**
 * The `gpu.index` section of app-config, read by the gpu backend plugin.
 * `gpu.gitops`, `gpu.clusters`, `gpu.catalog` and `gpu.policy` are declared
 * once, by @gpu-gitops/plugin-gpu-node (its config.d.ts), whose
 * `readGpuConfig` both backends read them with: Backstage merges the schemas
 * of all packages, so this file declares only the keys this package adds.
 * The index fetches `gpu.gitops.repoUrl` with the credentials of the
 * `integrations` entry for its host, as the scaffolder module does.
 */
export interface Config {
  gpu?: {
    /** The allocation index of the GitOps repository. */
    index?: {
      /**
       * How often the index fetches the repository and re-reads what changed,
       * e.g. `60s`, `5m`, or `{ minutes: 5 }`. Default 60 seconds.
       */
      refresh?: string | { seconds?: number; minutes?: number; hours?: number };
      /**
       * Directory of the index's own cached clone. Default: `index` under
       * `gpu.gitops.cacheDir` (or the OS temp folder), never the
       * publisher's clone, so reads never race a publish.
       */
      cacheDir?: string;
    };
  };
}
