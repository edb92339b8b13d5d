/**
 * Where each cluster profile's Kubernetes API is, for drift: Backstage's own
 * `kubernetes` config when it names the cluster (the Kubernetes plugin's
 * `clusterLocatorMethods` of `type: config`, as
 * @backstage/plugin-kubernetes-backend documents them), else the
 * profile's `gpu.utilization.clusters.<profile>.kubernetes`. One place to
 * configure a cluster, and the GPU pages read what the Kubernetes tab reads.
 */
import type { Config } from '@backstage/config';
import { readServerUrl } from './serverUrl';

/** One cluster's Kubernetes API, as the backend reaches it. */
export interface KubernetesTarget {
  /** The cluster profile (`gpu.clusters.profiles`). */
  cluster: string;
  /** The API server URL, never with credentials. */
  server: string;
  /** Bearer token (a service account's); from `tokenFile` when read per refresh. */
  token?: string;
  /** Read the token from this file on every refresh (in-cluster service account: it rotates). */
  tokenFile?: string;
  /** Base64 PEM of the API server's CA. */
  caData?: string;
  /** The CA as a file (in-cluster). */
  caFile?: string;
  skipTLSVerify?: boolean;
  timeoutMs: number;
  /** Why this cluster cannot be read with what is configured (an auth provider we cannot act as). */
  unusable?: string;
}

/** `gpu.utilization`'s drift part: each cluster's API and when pending is too long. */
export interface DriftConfig {
  targets: KubernetesTarget[];
  /** Pods pending (and nodes short of their GPU resources) longer than this are drift. */
  pendingGraceMs: number;
}

/** Longer than a GPU node takes to start and run the device plugin (a few minutes on EKS). */
export const DEFAULT_PENDING_MINUTES = 10;
const DEFAULT_TIMEOUT_MS = 10_000;
/** Where Kubernetes mounts a pod's service-account token (what Backstage's serviceAccount provider reads without a token). */
const IN_CLUSTER_TOKEN = '/var/run/secrets/kubernetes.io/serviceaccount/token';
const IN_CLUSTER_CA = '/var/run/secrets/kubernetes.io/serviceaccount/ca.crt';

function fail(key: string, rule: string): never {
  throw new Error(`${key}: ${rule}`);
}

const SERVER_URL_WORDS = {
  credentials: 'must not carry credentials; give a token instead',
};

function readServer(key: string, value: string): string {
  return readServerUrl(key, value, SERVER_URL_WORDS);
}

/** The clusters of Backstage's `kubernetes.clusterLocatorMethods` (`type: config`), by name. */
function backstageClusters(rootConfig: Config): Map<string, Config> {
  const byName = new Map<string, Config>();
  const methods =
    rootConfig.getOptionalConfigArray('kubernetes.clusterLocatorMethods') ?? [];
  for (const method of methods) {
    if (method.getOptionalString('type') !== 'config') continue;
    for (const cluster of method.getOptionalConfigArray('clusters') ?? []) {
      byName.set(cluster.getString('name'), cluster);
    }
  }
  return byName;
}

function fromBackstage(
  profile: string,
  name: string,
  cluster: Config,
  timeoutMs: number,
): KubernetesTarget {
  const key = `kubernetes cluster "${name}".url`;
  const server = readServer(key, cluster.getString('url'));
  const authProvider = cluster.getOptionalString('authProvider');
  const base = {
    cluster: profile,
    server,
    timeoutMs,
    ...(cluster.getOptionalString('caData')
      ? { caData: cluster.getString('caData') }
      : {}),
    ...(cluster.getOptionalBoolean('skipTLSVerify')
      ? { skipTLSVerify: true }
      : {}),
  };
  if (authProvider !== 'serviceAccount') {
    // aws, google, oidc, ... act as the signed-in user or a cloud identity
    // the Kubernetes plugin resolves per request; a scheduled read has none.
    return {
      ...base,
      unusable: `the Kubernetes cluster "${name}" uses authProvider ${authProvider ?? '(none)'}; drift reads need a service account: set its serviceAccountToken, or gpu.utilization.clusters.${profile}.kubernetes`,
    };
  }
  const token = cluster.getOptionalString('serviceAccountToken');
  return token
    ? { ...base, token }
    : {
        ...base,
        tokenFile: IN_CLUSTER_TOKEN,
        ...(base.caData ? {} : { caFile: IN_CLUSTER_CA }),
      };
}

/**
 * The Kubernetes API of every profile that has one configured, in profile
 * order; undefined when none has. Bad values fail start-up with the key; a
 * cluster we cannot authenticate to is kept with the reason, so its pages
 * say why.
 */
export function readDriftConfig(
  rootConfig: Config,
  clusterNames: string[],
): DriftConfig | undefined {
  const utilization = rootConfig.getOptionalConfig('gpu.utilization');
  if (!utilization) return undefined;
  const pendingMinutes =
    utilization.getOptionalNumber('pendingMinutes') ?? DEFAULT_PENDING_MINUTES;
  if (!(pendingMinutes > 0 && pendingMinutes <= 24 * 60)) {
    fail('gpu.utilization.pendingMinutes', 'must be 1 to 1440 minutes');
  }
  const known = backstageClusters(rootConfig);
  const targets: KubernetesTarget[] = [];
  for (const profile of clusterNames) {
    const entry = utilization.getOptionalConfig(`clusters.${profile}`);
    const seconds = entry?.getOptionalNumber('timeoutSeconds');
    const timeoutMs =
      seconds !== undefined ? seconds * 1000 : DEFAULT_TIMEOUT_MS;
    const own = entry?.getOptionalConfig('kubernetes');
    const named = entry?.getOptionalString('kubernetesCluster') ?? profile;
    const backstage = known.get(named);
    if (entry?.has('kubernetesCluster') && !backstage) {
      fail(
        `gpu.utilization.clusters.${profile}.kubernetesCluster`,
        `"${named}" is not a cluster of kubernetes.clusterLocatorMethods (type: config)`,
      );
    }
    if (backstage) {
      targets.push(fromBackstage(profile, named, backstage, timeoutMs));
    } else if (own) {
      const key = `gpu.utilization.clusters.${profile}.kubernetes`;
      targets.push({
        cluster: profile,
        server: readServer(`${key}.url`, own.getString('url')),
        timeoutMs,
        ...(own.getOptionalString('token')
          ? { token: own.getString('token') }
          : {}),
        ...(own.getOptionalString('caData')
          ? { caData: own.getString('caData') }
          : {}),
        ...(own.getOptionalBoolean('skipTLSVerify')
          ? { skipTLSVerify: true }
          : {}),
      });
    }
  }
  return targets.length > 0
    ? { targets, pendingGraceMs: pendingMinutes * 60_000 }
    : undefined;
}
