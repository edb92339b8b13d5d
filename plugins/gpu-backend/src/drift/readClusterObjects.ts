/**
 * One read of a cluster's Kubernetes API for drift: a fixed number of calls
 * per refresh whatever the number of pools or requests, with
 * @kubernetes/client-node, a time limit on every call, and the token only
 * in the Authorization header. Every cluster: its pool nodes, pending pods,
 * FailedScheduling events and the device-plugin ConfigMap; the bin-packing
 * scheduler's pods where the profile opts in (`binPacking`); every
 * ResourceClaim where it enables DRA (`profileEnablesDra`); then only the
 * objects its pools are made of (`readPoolObjects`): Karpenter NodePools and
 * NodeOverlays (EKS Auto Mode's NodePools alike), Cluster API
 * MachineDeployments, NFD NodeFeatureRules, or GKE ComputeClasses.
 */
import { readFileSync } from 'node:fs';
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  ResourceV1Api,
  type ConfigurationOptions,
  type CoreV1Event,
  Observable,
  type ObservableMiddleware,
  type V1Node,
  type V1Pod,
  type ResourceV1ResourceClaim,
} from '@kubernetes/client-node';
import {
  BIN_PACKING_SCHEDULER_NAMESPACE,
  BIN_PACKING_SCHEDULER_POD_LABELS,
  clusterApiSettingsOf,
  poolNodeLabel,
  profileEnablesDra,
  type ClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';
import type { KubernetesTarget } from '../config/readDriftConfig';
import type { WrittenMetadata } from './driftTime';
import { poolObjectKind } from './poolObjectPresence';

/** A status condition (metav1.Condition, and Karpenter's and Cluster API's alike). */
export interface ObjectCondition {
  type: string;
  status: string;
  reason?: string;
  message?: string;
  lastTransitionTime?: string;
}

/** A Karpenter object as the API lists it (NodePool, NodeOverlay). */
export interface KarpenterObject {
  metadata: { name: string; labels?: Record<string, string> };
  spec?: {
    requirements?: { key: string; operator: string; values?: string[] }[];
    capacity?: Record<string, string>;
    template?: { metadata?: { labels?: Record<string, string> } };
  };
  status?: { conditions?: ObjectCondition[] };
}

/** A Cluster API MachineDeployment (`cluster.x-k8s.io/v1beta2`): what drift reads of it. */
export interface MachineDeploymentObject {
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
    creationTimestamp?: string;
  };
  spec?: { clusterName?: string; replicas?: number };
  status?: {
    replicas?: number;
    readyReplicas?: number;
    availableReplicas?: number;
    conditions?: ObjectCondition[];
  };
}

/** An NFD NodeFeatureRule (`nfd.k8s-sigs.io/v1alpha1`, no status): what drift reads of it. */
export interface NodeFeatureRuleObject {
  metadata: WrittenMetadata & {
    name: string;
    labels?: Record<string, string>;
  };
}

/** A GKE ComputeClass (`cloud.google.com/v1`): what drift reads of it. */
export interface ComputeClassObject {
  metadata: { name: string; labels?: Record<string, string> };
}

/** What drift compares Git with. */
export interface ClusterObjects {
  /** Karpenter clusters only: their NodePools. */
  nodePools?: KarpenterObject[];
  /** Karpenter clusters: undefined when the cluster serves no NodeOverlay API at all. */
  nodeOverlays?: KarpenterObject[];
  /**
   * Cluster API clusters: the MachineDeployments of the profile's
   * `clusterApi.namespace`; undefined when the cluster serves no
   * `cluster.x-k8s.io/v1beta2` MachineDeployment API.
   */
  machineDeployments?: MachineDeploymentObject[];
  /**
   * Static clusters with a node inventory: every NodeFeatureRule;
   * undefined when the cluster serves no NodeFeatureRule API.
   */
  nodeFeatureRules?: NodeFeatureRuleObject[];
  /**
   * GKE clusters: every ComputeClass; undefined when the cluster serves no
   * `cloud.google.com/v1` ComputeClass API.
   */
  computeClasses?: ComputeClassObject[];
  /** Nodes of the cluster's pools: those carrying its provider's pool label (`poolNodeLabel.ts`). */
  nodes: V1Node[];
  pendingPods: V1Pod[];
  schedulingEvents: CoreV1Event[];
  /** Keys of the device-plugin ConfigMap; undefined when it does not exist. */
  devicePluginConfigKeys?: string[];
  /**
   * The pods of the bin-packing scheduler's Deployment (its pod labels in
   * its namespace); undefined where the profile does not opt in (`binPacking`).
   */
  binPackingSchedulerPods?: V1Pod[];
  /**
   * Every namespace's ResourceClaims (`resource.k8s.io/v1`) where the
   * profile enables DRA; undefined otherwise, or when the cluster serves
   * no such API.
   */
  resourceClaims?: ResourceV1ResourceClaim[];
}

/** `key=value,...`: the label selector of the bin-packing scheduler's pods. */
const SCHEDULER_POD_SELECTOR = Object.entries(BIN_PACKING_SCHEDULER_POD_LABELS)
  .map(([key, value]) => `${key}=${value}`)
  .join(',');

/** karpenter.sh/v1 NodePool and v1alpha1 NodeOverlay (Karpenter v1.14 CRDs). */
const NODE_POOLS = {
  group: 'karpenter.sh',
  version: 'v1',
  plural: 'nodepools',
};
const NODE_OVERLAYS = {
  group: 'karpenter.sh',
  version: 'v1alpha1',
  plural: 'nodeoverlays',
};
/**
 * Cluster API's MachineDeployment at the version the product writes
 * (`cluster.x-k8s.io/v1beta2`, served from Cluster API v1.11; storage
 * version of kubernetes-sigs/cluster-api v1.14.0
 * `core/config/crd/bases/cluster.x-k8s.io_machinedeployments.yaml`).
 */
const MACHINE_DEPLOYMENTS = {
  group: 'cluster.x-k8s.io',
  version: 'v1beta2',
  plural: 'machinedeployments',
};
/**
 * NFD's NodeFeatureRule, cluster-scoped (kubernetes-sigs/node-feature-discovery
 * v0.19.0 `deployment/base/nfd-crds/nfd-api-crds.yaml`).
 */
const NODE_FEATURE_RULES = {
  group: 'nfd.k8s-sigs.io',
  version: 'v1alpha1',
  plural: 'nodefeaturerules',
};

/**
 * GKE's ComputeClass, cluster-scoped (the CRD reference,
 * cloud.google.com/kubernetes-engine/docs/reference/crds/computeclass).
 */
const COMPUTE_CLASSES = {
  group: 'cloud.google.com',
  version: 'v1',
  plural: 'computeclasses',
};

/**
 * A time limit on each call: the request's abort signal, set before it is
 * sent. The object API passes per-call options to its observable API
 * unwrapped, so the middleware is the observable kind.
 */
function withTimeout(timeoutMs: number): ConfigurationOptions {
  const timeout: ObservableMiddleware = {
    pre: context => {
      context.setSignal(AbortSignal.timeout(timeoutMs));
      return new Observable(Promise.resolve(context));
    },
    post: context => new Observable(Promise.resolve(context)),
  };
  return { middleware: [timeout], middlewareMergeStrategy: 'append' };
}

function kubeConfigOf(target: KubernetesTarget): KubeConfig {
  const token = target.tokenFile
    ? readFileSync(target.tokenFile, 'utf8').trim()
    : target.token;
  const kc = new KubeConfig();
  kc.loadFromOptions({
    clusters: [
      {
        name: target.cluster,
        server: target.server,
        ...(target.caData ? { caData: target.caData } : {}),
        ...(target.caFile ? { caFile: target.caFile } : {}),
        skipTLSVerify: target.skipTLSVerify ?? false,
      },
    ],
    users: [{ name: 'gpu-backend', ...(token ? { token } : {}) }],
    contexts: [
      { name: target.cluster, cluster: target.cluster, user: 'gpu-backend' },
    ],
    currentContext: target.cluster,
  });
  return kc;
}

function statusOf(error: unknown): number | undefined {
  return error instanceof ApiException ? error.code : undefined;
}

/** The pool objects a cluster's token must list, by the kind its pools are. */
function poolObjectGrants(profile: ClusterProfile): string {
  switch (poolObjectKind(profile)) {
    case 'MachineDeployment':
      return `machinedeployments (cluster.x-k8s.io) in namespace ${profile.clusterApi?.namespace}, `;
    case 'NodeFeatureRule':
      return 'nodefeaturerules (nfd.k8s-sigs.io), ';
    case 'NodePool':
      return 'nodepools and nodeoverlays (karpenter.sh), ';
    case 'ComputeClass':
      return 'computeclasses (cloud.google.com), ';
    default:
      return ''; // no pool object written
  }
}

/** The error in words, without the token, the body or the full URL. */
function describe(
  target: KubernetesTarget,
  profile: ClusterProfile,
  what: string,
  error: unknown,
) {
  const origin = new URL(target.server).host;
  const code = statusOf(error);
  if (code === 401 || code === 403) {
    return `Kubernetes API at ${origin} refused to ${what} (HTTP ${code}): the token needs list on ${poolObjectGrants(profile)}nodes, pods and events, and get on the device-plugin ConfigMap`;
  }
  if (code !== undefined) {
    return `Kubernetes API at ${origin} failed to ${what} (HTTP ${code})`;
  }
  const name = (error as Error)?.name;
  if (name === 'AbortError' || name === 'TimeoutError') {
    return `Kubernetes API at ${origin} did not answer within ${target.timeoutMs / 1000} s`;
  }
  const cause =
    (error as { code?: string })?.code ??
    (error as { cause?: { code?: string } })?.cause?.code ??
    (error as Error)?.message;
  return `Kubernetes API at ${origin} cannot be reached (${cause})`;
}

type Call = <T>(what: string, run: () => Promise<T>) => Promise<T>;
type OrMissing = <T>(
  what: string,
  run: () => Promise<T>,
) => Promise<T | undefined>;

function itemsOf<T>(list: unknown): T[] {
  return (list as { items?: T[] }).items ?? [];
}

/**
 * The objects the cluster's pools are made of, and only those (a Cluster
 * API cluster has no NodePools to list, a Karpenter cluster no
 * MachineDeployments). A 404 on a list is a cluster without that API: an
 * answer drift reports, not a failed read.
 */
async function readPoolObjects(
  profile: ClusterProfile,
  custom: CustomObjectsApi,
  options: ConfigurationOptions,
  call: Call,
  orMissing: OrMissing,
): Promise<
  Pick<
    ClusterObjects,
    | 'nodePools'
    | 'nodeOverlays'
    | 'machineDeployments'
    | 'nodeFeatureRules'
    | 'computeClasses'
  >
> {
  switch (poolObjectKind(profile)) {
    case 'MachineDeployment': {
      const list = await orMissing('list MachineDeployments', () =>
        custom.listNamespacedCustomObject(
          {
            ...MACHINE_DEPLOYMENTS,
            namespace: clusterApiSettingsOf(profile).namespace,
          },
          options,
        ),
      );
      return list
        ? { machineDeployments: itemsOf<MachineDeploymentObject>(list) }
        : {};
    }
    case 'NodeFeatureRule': {
      const list = await orMissing('list NodeFeatureRules', () =>
        custom.listClusterCustomObject(NODE_FEATURE_RULES, options),
      );
      return list
        ? { nodeFeatureRules: itemsOf<NodeFeatureRuleObject>(list) }
        : {};
    }
    case 'ComputeClass': {
      const list = await orMissing('list ComputeClasses', () =>
        custom.listClusterCustomObject(COMPUTE_CLASSES, options),
      );
      return list ? { computeClasses: itemsOf<ComputeClassObject>(list) } : {};
    }
    case 'NodePool': {
      const [nodePools, nodeOverlays] = await Promise.all([
        call('list NodePools', () =>
          custom.listClusterCustomObject(NODE_POOLS, options),
        ),
        orMissing('list NodeOverlays', () =>
          custom.listClusterCustomObject(NODE_OVERLAYS, options),
        ),
      ]);
      return {
        nodePools: itemsOf<KarpenterObject>(nodePools),
        ...(nodeOverlays
          ? { nodeOverlays: itemsOf<KarpenterObject>(nodeOverlays) }
          : {}),
      };
    }
    default:
      return {}; // no pool object written
  }
}

/**
 * The two ways a read is run: `call` turns any failure into the error in
 * words; `orMissing` also answers undefined for a missing API or object (404),
 * an answer rather than a failure.
 */
function callersOf(
  target: KubernetesTarget,
  profile: ClusterProfile,
): { call: Call; orMissing: OrMissing } {
  const call: Call = async (what, run) => {
    try {
      return await run();
    } catch (error) {
      throw new Error(describe(target, profile, what, error));
    }
  };
  const orMissing: OrMissing = async (what, run) => {
    try {
      return await run();
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw new Error(describe(target, profile, what, error));
    }
  };
  return { call, orMissing };
}

export async function readClusterObjects(
  target: KubernetesTarget,
  profile: ClusterProfile,
): Promise<ClusterObjects> {
  const kc = kubeConfigOf(target);
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const resource = kc.makeApiClient(ResourceV1Api);
  const options = withTimeout(target.timeoutMs);
  const { call, orMissing } = callersOf(target, profile);
  const [
    poolObjects,
    nodes,
    pendingPods,
    schedulingEvents,
    configMap,
    schedulerPods,
    resourceClaims,
  ] = await Promise.all([
    readPoolObjects(profile, custom, options, call, orMissing),
    // The label's presence: every node of every pool, none other.
    call('list nodes', () =>
      core.listNode({ labelSelector: poolNodeLabel(profile) }, options),
    ),
    call('list pods', () =>
      core.listPodForAllNamespaces(
        { fieldSelector: 'status.phase=Pending' },
        options,
      ),
    ),
    call('list events', () =>
      core.listEventForAllNamespaces(
        { fieldSelector: 'involvedObject.kind=Pod,reason=FailedScheduling' },
        options,
      ),
    ),
    orMissing('read the device-plugin ConfigMap', () =>
      core.readNamespacedConfigMap(profile.devicePluginConfigMap, options),
    ),
    profile.binPacking
      ? call('list the gpu-binpack scheduler pods', () =>
          core.listNamespacedPod(
            {
              namespace: BIN_PACKING_SCHEDULER_NAMESPACE,
              labelSelector: SCHEDULER_POD_SELECTOR,
            },
            options,
          ),
        )
      : undefined,
    profileEnablesDra(profile)
      ? orMissing('list ResourceClaims', () =>
          resource.listResourceClaimForAllNamespaces({}, options),
        )
      : undefined,
  ]);
  return {
    ...poolObjects,
    nodes: nodes.items,
    pendingPods: pendingPods.items,
    schedulingEvents: schedulingEvents.items,
    ...(configMap
      ? { devicePluginConfigKeys: Object.keys(configMap.data ?? {}).sort() }
      : {}),
    ...(schedulerPods ? { binPackingSchedulerPods: schedulerPods.items } : {}),
    ...(resourceClaims ? { resourceClaims: resourceClaims.items } : {}),
  };
}
