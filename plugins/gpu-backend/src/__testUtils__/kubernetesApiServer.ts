/**
 * TEST-ONLY: the one faked part of drift, a Kubernetes API server on a
 * loopback port, over TLS with a throw-away certificate (the client
 * refuses plain HTTP, as it should). It answers the calls drift makes with the real response
 * shapes (`<Kind>List` with `metadata.resourceVersion`, a `Status` object
 * for 401 / 404), checks the bearer token, applies the label and field
 * selectors drift sends, and validates every object it serves against the
 * real schemas (kubernetes-models for core v1, @kubernetes-models/karpenter
 * for NodePool v1 and NodeOverlay v1alpha1, kubernetes-models for
 * `resource.k8s.io/v1` ResourceClaim, the vendored upstream CRDs of
 * Cluster API v1.14.0 for MachineDeployment v1beta2 and of NFD v0.19.0 for
 * NodeFeatureRule v1alpha1), so fixtures cannot drift from what a cluster
 * would return.
 */
import { execFileSync } from 'node:child_process';
import { mkdtempSync, readFileSync, rmSync } from 'node:fs';
import https from 'node:https';
import type { AddressInfo } from 'node:net';
import { tmpdir } from 'node:os';
import path from 'node:path';
import { validateAgainstCrd } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/crdSchemas';
import { validateAgainstSchema } from '@gpu-gitops/plugin-gpu-common/src/manifests/__testUtils__/kubernetesSchemas';

type KubeObject = {
  apiVersion: string;
  kind: string;
  metadata: {
    name: string;
    namespace?: string;
    labels?: Record<string, string>;
  };
  [key: string]: unknown;
};

export interface ClusterContents {
  nodePools: KubeObject[];
  /** Undefined: the cluster serves no NodeOverlay API (404, as without the CRD). */
  nodeOverlays?: KubeObject[];
  /** Every namespace's; undefined: no `cluster.x-k8s.io/v1beta2` MachineDeployment API (404). */
  machineDeployments?: KubeObject[];
  /** Undefined: no NodeFeatureRule API (404, as without NFD's CRDs). */
  nodeFeatureRules?: KubeObject[];
  /** Undefined: no `cloud.google.com/v1` ComputeClass API (404, as off GKE). */
  computeClasses?: KubeObject[];
  nodes: KubeObject[];
  pods: KubeObject[];
  events: KubeObject[];
  configMaps: KubeObject[];
  /** Every namespace's; undefined: no `resource.k8s.io/v1` API (404, as below Kubernetes 1.34). */
  resourceClaims?: KubeObject[];
}

export interface KubernetesApiServer {
  url: string;
  /** Base64 PEM of the server's self-signed certificate (kubeconfig `caData`). */
  caData: string;
  /** Path and query of every request served, in order. */
  requests: string[];
  /** Replace what the cluster holds (validated). */
  setContents(contents: ClusterContents): void;
  /** Hold every answer this long (a stalled API server). */
  stallMs: number;
  stop(): Promise<void>;
}

function status(code: number, reason: string, message: string) {
  return {
    kind: 'Status',
    apiVersion: 'v1',
    metadata: {},
    status: 'Failure',
    message,
    reason,
    code,
  };
}

/**
 * Kinds no kubernetes-models package covers, checked against the upstream
 * CRD gpu-common vendors (`src/manifests/__testUtils__/crds/`, sources in
 * its SOURCES.md).
 */
const CRD_FILES: Record<string, string> = {
  'cluster.x-k8s.io/v1beta2/MachineDeployment':
    'capi-v1.14.0_cluster.x-k8s.io_machinedeployments.yaml',
  'nfd.k8s-sigs.io/v1alpha1/NodeFeatureRule':
    'nfd-v0.19.0_nfd.k8s-sigs.io_nfd-api-crds.yaml',
  'cloud.google.com/v1/ComputeClass': 'gke-cloud.google.com_computeclasses.yaml',
};

function validateObject(object: KubeObject): void {
  const crd = CRD_FILES[`${object.apiVersion}/${object.kind}`];
  if (crd) validateAgainstCrd(object, crd);
  else validateAgainstSchema(object);
}

const notFound = () =>
  status(404, 'NotFound', 'the server could not find the requested resource');

function list(kind: string, apiVersion: string, items: KubeObject[]) {
  return {
    apiVersion,
    kind: `${kind}List`,
    metadata: { resourceVersion: '4242' },
    items,
  };
}

/** `key`, `key=value` and `key!=value` terms (what drift sends), ANDed. */
function matchesSelector(
  values: Record<string, string | undefined>,
  selector: string | null,
): boolean {
  if (!selector) return true;
  return selector.split(',').every(term => {
    const [key, value] = term.split(/!?=/);
    if (value === undefined) return values[key] !== undefined;
    return term.includes('!=') ? values[key] !== value : values[key] === value;
  });
}

function podFields(pod: KubeObject): Record<string, string | undefined> {
  return {
    'metadata.namespace': pod.metadata.namespace,
    'metadata.name': pod.metadata.name,
    'status.phase': (pod.status as { phase?: string } | undefined)?.phase,
  };
}

function eventFields(event: KubeObject): Record<string, string | undefined> {
  const involved = event.involvedObject as {
    kind?: string;
    name?: string;
    namespace?: string;
  };
  return {
    'involvedObject.kind': involved.kind,
    'involvedObject.name': involved.name,
    'involvedObject.namespace': involved.namespace,
    reason: event.reason as string | undefined,
  };
}

/** A self-signed certificate for 127.0.0.1 from the machine's openssl. */
function selfSignedCertificate(): { key: string; cert: string } {
  const dir = mkdtempSync(path.join(tmpdir(), 'gpu-kube-api-'));
  try {
    execFileSync(
      'openssl',
      [
        'req',
        '-x509',
        '-newkey',
        'ec',
        '-pkeyopt',
        'ec_paramgen_curve:prime256v1',
        '-nodes',
        '-days',
        '1',
        '-subj',
        '/CN=127.0.0.1',
        '-addext',
        'subjectAltName=IP:127.0.0.1',
        '-keyout',
        path.join(dir, 'key.pem'),
        '-out',
        path.join(dir, 'cert.pem'),
      ],
      { stdio: 'pipe' },
    );
    return {
      key: readFileSync(path.join(dir, 'key.pem'), 'utf8'),
      cert: readFileSync(path.join(dir, 'cert.pem'), 'utf8'),
    };
  } finally {
    rmSync(dir, { recursive: true, force: true });
  }
}

/**
 * Backstage's Kubernetes plugin config naming one cluster (what drift reads
 * the cluster from): a service account's token and the server's CA.
 */
export function backstageKubernetesConfig(cluster: {
  name: string;
  url: string;
  token: string;
  caData: string;
}) {
  return {
    serviceLocatorMethod: { type: 'multiTenant' },
    clusterLocatorMethods: [
      {
        type: 'config',
        clusters: [
          {
            name: cluster.name,
            url: cluster.url,
            authProvider: 'serviceAccount',
            serviceAccountToken: cluster.token,
            caData: cluster.caData,
          },
        ],
      },
    ],
  };
}

export async function startKubernetesApiServer(options: {
  token: string;
  contents: ClusterContents;
}): Promise<KubernetesApiServer> {
  let contents: ClusterContents = options.contents;
  const validate = (next: ClusterContents) => {
    for (const object of [
      ...next.nodePools,
      ...(next.nodeOverlays ?? []),
      ...(next.machineDeployments ?? []),
      ...(next.nodeFeatureRules ?? []),
      ...(next.computeClasses ?? []),
      ...next.nodes,
      ...next.pods,
      ...next.events,
      ...next.configMaps,
      ...(next.resourceClaims ?? []),
    ]) {
      validateObject(object);
    }
  };
  validate(contents);
  const requests: string[] = [];
  const state = { stallMs: 0 };
  const tls = selfSignedCertificate();
  const server = https.createServer(tls, (req, res) => {
    const url = new URL(req.url ?? '/', 'http://localhost');
    requests.push(`${url.pathname}${url.search}`);
    const answer = (code: number, body: unknown) => {
      const send = () => {
        res.writeHead(code, { 'content-type': 'application/json' });
        res.end(JSON.stringify(body));
      };
      if (state.stallMs > 0) setTimeout(send, state.stallMs).unref();
      else send();
    };
    if (req.headers.authorization !== `Bearer ${options.token}`) {
      answer(401, status(401, 'Unauthorized', 'Unauthorized'));
      return;
    }
    const labelSelector = url.searchParams.get('labelSelector');
    const fieldSelector = url.searchParams.get('fieldSelector');
    const configMap = url.pathname.match(
      /^\/api\/v1\/namespaces\/([^/]+)\/configmaps\/([^/]+)$/,
    );
    const namespacedPods = url.pathname.match(
      /^\/api\/v1\/namespaces\/([^/]+)\/pods$/,
    );
    const machineDeployments = url.pathname.match(
      /^\/apis\/cluster\.x-k8s\.io\/v1beta2\/namespaces\/([^/]+)\/machinedeployments$/,
    );
    switch (url.pathname) {
      case '/apis/karpenter.sh/v1/nodepools':
        answer(200, list('NodePool', 'karpenter.sh/v1', contents.nodePools));
        return;
      case '/apis/karpenter.sh/v1alpha1/nodeoverlays':
        if (!contents.nodeOverlays) {
          answer(404, notFound());
        } else {
          answer(
            200,
            list('NodeOverlay', 'karpenter.sh/v1alpha1', contents.nodeOverlays),
          );
        }
        return;
      case '/apis/nfd.k8s-sigs.io/v1alpha1/nodefeaturerules':
        if (!contents.nodeFeatureRules) answer(404, notFound());
        else {
          answer(
            200,
            list(
              'NodeFeatureRule',
              'nfd.k8s-sigs.io/v1alpha1',
              contents.nodeFeatureRules,
            ),
          );
        }
        return;
      case '/apis/cloud.google.com/v1/computeclasses':
        if (!contents.computeClasses) answer(404, notFound());
        else {
          answer(
            200,
            list('ComputeClass', 'cloud.google.com/v1', contents.computeClasses),
          );
        }
        return;
      case '/apis/resource.k8s.io/v1/resourceclaims':
        if (!contents.resourceClaims) answer(404, notFound());
        else {
          answer(
            200,
            list(
              'ResourceClaim',
              'resource.k8s.io/v1',
              contents.resourceClaims,
            ),
          );
        }
        return;
      case '/api/v1/nodes':
        answer(
          200,
          list(
            'Node',
            'v1',
            contents.nodes.filter(n =>
              matchesSelector(n.metadata.labels ?? {}, labelSelector),
            ),
          ),
        );
        return;
      case '/api/v1/pods':
        answer(
          200,
          list(
            'Pod',
            'v1',
            contents.pods.filter(p =>
              matchesSelector(podFields(p), fieldSelector),
            ),
          ),
        );
        return;
      case '/api/v1/events':
        answer(
          200,
          list(
            'Event',
            'v1',
            contents.events.filter(e =>
              matchesSelector(eventFields(e), fieldSelector),
            ),
          ),
        );
        return;
      default:
        if (namespacedPods) {
          const [, namespace] = namespacedPods;
          answer(
            200,
            list(
              'Pod',
              'v1',
              contents.pods.filter(
                p =>
                  p.metadata.namespace === namespace &&
                  matchesSelector(p.metadata.labels ?? {}, labelSelector) &&
                  matchesSelector(podFields(p), fieldSelector),
              ),
            ),
          );
          return;
        }
        if (machineDeployments) {
          if (!contents.machineDeployments) {
            answer(404, notFound());
            return;
          }
          // A namespace without any (or that does not exist): an empty list.
          const [, namespace] = machineDeployments;
          answer(
            200,
            list(
              'MachineDeployment',
              'cluster.x-k8s.io/v1beta2',
              contents.machineDeployments.filter(
                d => d.metadata.namespace === namespace,
              ),
            ),
          );
          return;
        }
        if (configMap) {
          const [, namespace, name] = configMap;
          const found = contents.configMaps.find(
            c => c.metadata.namespace === namespace && c.metadata.name === name,
          );
          if (found) answer(200, found);
          else
            answer(
              404,
              status(404, 'NotFound', `configmaps "${name}" not found`),
            );
          return;
        }
        answer(404, notFound());
    }
  });
  await new Promise<void>(resolve => server.listen(0, '127.0.0.1', resolve));
  const { port } = server.address() as AddressInfo;
  return {
    url: `https://127.0.0.1:${port}`,
    caData: Buffer.from(tls.cert).toString('base64'),
    requests,
    setContents(next) {
      validate(next);
      contents = next;
    },
    get stallMs() {
      return state.stallMs;
    },
    set stallMs(value: number) {
      state.stallMs = value;
    },
    stop: () =>
      new Promise<void>(resolve => {
        server.closeAllConnections();
        server.close(() => resolve());
      }),
  };
}
