/**
 * One read of a cluster's Kubernetes API for drift: the same six calls per
 * refresh whatever the number of pools or requests (list NodePools,
 * NodeOverlays, GPU nodes, pending pods, FailedScheduling events; read the
 * device-plugin ConfigMap), with @kubernetes/client-node, a time limit on
 * every call, and the token only in the Authorization header.
 */
import { readFileSync } from 'node:fs';
import {
  ApiException,
  CoreV1Api,
  CustomObjectsApi,
  KubeConfig,
  type ConfigurationOptions,
  type CoreV1Event,
  Observable,
  type ObservableMiddleware,
  type V1Node,
  type V1Pod,
} from '@kubernetes/client-node';
import type { ClusterProfile } from '@gpu-gitops/plugin-gpu-common';
import type { KubernetesTarget } from '../config/readDriftConfig';
import { poolNodeLabel } from './poolNodeLabel';

/** A Karpenter object as the API lists it (NodePool, NodeOverlay). */
export interface KarpenterObject {
  metadata: { name: string; labels?: Record<string, string> };
  spec?: {
    requirements?: { key: string; operator: string; values?: string[] }[];
    capacity?: Record<string, string>;
    template?: { metadata?: { labels?: Record<string, string> } };
  };
  status?: {
    conditions?: {
      type: string;
      status: string;
      reason?: string;
      message?: string;
    }[];
  };
}

/** What drift compares Git with. */
export interface ClusterObjects {
  nodePools: KarpenterObject[];
  /** Undefined when the cluster serves no NodeOverlay API at all. */
  nodeOverlays?: KarpenterObject[];
  /** Nodes of the cluster's pools: those carrying its provider's pool label (`poolNodeLabel.ts`). */
  nodes: V1Node[];
  pendingPods: V1Pod[];
  schedulingEvents: CoreV1Event[];
  /** Keys of the device-plugin ConfigMap; undefined when it does not exist. */
  devicePluginConfigKeys?: string[];
}

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

/** The error in words, without the token, the body or the full URL. */
function describe(target: KubernetesTarget, what: string, error: unknown) {
  const origin = new URL(target.server).host;
  const code = statusOf(error);
  if (code === 401 || code === 403) {
    return `Kubernetes API at ${origin} refused to ${what} (HTTP ${code}): the token needs list on nodepools and nodeoverlays (karpenter.sh), nodes, pods and events, and get on the device-plugin ConfigMap`;
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

export async function readClusterObjects(
  target: KubernetesTarget,
  profile: ClusterProfile,
): Promise<ClusterObjects> {
  const kc = kubeConfigOf(target);
  const core = kc.makeApiClient(CoreV1Api);
  const custom = kc.makeApiClient(CustomObjectsApi);
  const options = withTimeout(target.timeoutMs);
  const call = async <T>(what: string, run: () => Promise<T>): Promise<T> => {
    try {
      return await run();
    } catch (error) {
      throw new Error(describe(target, what, error));
    }
  };
  /** A missing API or object (404) is an answer, not a failure. */
  const orMissing = async <T>(
    what: string,
    run: () => Promise<T>,
  ): Promise<T | undefined> => {
    try {
      return await run();
    } catch (error) {
      if (statusOf(error) === 404) return undefined;
      throw new Error(describe(target, what, error));
    }
  };
  const [
    nodePools,
    nodeOverlays,
    nodes,
    pendingPods,
    schedulingEvents,
    configMap,
  ] = await Promise.all([
    call('list NodePools', () =>
      custom.listClusterCustomObject(NODE_POOLS, options),
    ),
    orMissing('list NodeOverlays', () =>
      custom.listClusterCustomObject(NODE_OVERLAYS, options),
    ),
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
  ]);
  return {
    nodePools: (nodePools as { items?: KarpenterObject[] }).items ?? [],
    ...(nodeOverlays
      ? {
          nodeOverlays:
            (nodeOverlays as { items?: KarpenterObject[] }).items ?? [],
        }
      : {}),
    nodes: nodes.items,
    pendingPods: pendingPods.items,
    schedulingEvents: schedulingEvents.items,
    ...(configMap
      ? { devicePluginConfigKeys: Object.keys(configMap.data ?? {}).sort() }
      : {}),
  };
}
