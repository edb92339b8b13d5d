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
    /**
     * Live data: what the cluster's GPUs really do, from NVIDIA's DCGM
     * exporter as Prometheus scrapes it. Without it the pages show intent
     * (the GitOps repository) only.
     */
    utilization?: {
      /** The look-back window of every figure, a PromQL duration. Default `7d`. */
      window?: string;
      /** How often each cluster's Prometheus is asked (a fixed set of queries). Default 5 minutes. */
      refresh?: string | { seconds?: number; minutes?: number; hours?: number };
      /** Pods of a request pending longer than this (minutes) show as drift, with their scheduling events. Default 10. */
      pendingMinutes?: number;
      /** Per cluster profile name (`gpu.clusters.profiles`). */
      clusters?: {
        [cluster: string]: {
          /** Prometheus base URL, e.g. `https://prometheus.monitoring:9090`; never with credentials. Without it: no utilization. */
          prometheusUrl?: string;
          /**
           * Bearer token for the Prometheus API, if it needs one.
           * @visibility secret
           */
          token?: string;
          /** Limit of each query (Prometheus and Kubernetes API). Default 10 seconds. */
          timeoutSeconds?: number;
          /**
           * The name of this cluster in Backstage's `kubernetes.clusterLocatorMethods`
           * (`type: config`), when it differs from the profile name. Drift reads
           * that cluster's URL, CA and service-account token.
           */
          kubernetesCluster?: string;
          /** The cluster's Kubernetes API, when Backstage's `kubernetes` config does not list it. */
          kubernetes?: {
            /** API server URL, e.g. `https://10.0.0.1:6443`; never with credentials. */
            url: string;
            /**
             * A service-account token that may list nodepools, nodeoverlays, nodes, pods, events and read the device-plugin ConfigMap.
             * @visibility secret
             */
            token?: string;
            /** Base64 PEM of the API server's CA. */
            caData?: string;
            skipTLSVerify?: boolean;
          };
        };
      };
    };
  };
}
