/**
 * The objects that run the bin-packing scheduler as Kubernetes documents a
 * second scheduler ("Configure Multiple Schedulers",
 * https://kubernetes.io/docs/tasks/extend-kubernetes/configure-multiple-schedulers/,
 * its `admin/sched/my-scheduler.yaml` of kubernetes/website release-1.34):
 * a ServiceAccount bound to `system:kube-scheduler` and
 * `system:volume-scheduler`, to `extension-apiserver-authentication-reader`
 * (the scheduler reads the client CA for its authenticated /healthz), the
 * profile in a ConfigMap, and a Deployment of the kube-scheduler release of
 * the cluster's Kubernetes version running `--config` from it. Unlike the
 * example it elects a leader (two replicas), so it gets a Role on its own
 * lease: `system:kube-scheduler` grants get/update only on the lease named
 * `kube-scheduler`.
 */
import {
  BIN_PACKING_SCHEDULER_NAME as NAME,
  BIN_PACKING_SCHEDULER_NAMESPACE as NAMESPACE,
  BIN_PACKING_SCHEDULER_POD_LABELS as POD_LABELS,
} from '@gpu-gitops/plugin-gpu-common';
import { stringify } from 'yaml';
import { binPackingSchedulerConfig } from './schedulerConfig';

const RBAC = 'rbac.authorization.k8s.io';
const CONFIG_MAP = `${NAME}-scheduler-config`;
const CONFIG_DIR = `/etc/kubernetes/${NAME}`;
const CONFIG_FILE = 'config.yaml';
/** kube-scheduler's secure port, where it serves /healthz (`--secure-port` default). */
const SECURE_PORT = 10259;

const metadata = (name: string) => ({ name, namespace: NAMESPACE });
const subjects = [{ kind: 'ServiceAccount', name: NAME, namespace: NAMESPACE }];

function clusterRoleBinding(role: string, suffix: string) {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'ClusterRoleBinding',
    metadata: { name: `${NAME}-as-${suffix}` },
    roleRef: { apiGroup: RBAC, kind: 'ClusterRole', name: role },
    subjects,
  };
}

function roleBinding(name: string, role: string) {
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'RoleBinding',
    metadata: metadata(name),
    roleRef: { apiGroup: RBAC, kind: 'Role', name: role },
    subjects,
  };
}

/** Its own lease: create (which resourceNames cannot restrict), then get and update that one. */
function leaseRole() {
  const leases = { apiGroups: ['coordination.k8s.io'], resources: ['leases'] };
  return {
    apiVersion: `${RBAC}/v1`,
    kind: 'Role',
    metadata: metadata(`${NAME}-leader-election`),
    rules: [
      { ...leases, verbs: ['create'] },
      { ...leases, resourceNames: [NAME], verbs: ['get', 'update'] },
    ],
  };
}

function deployment(image: string) {
  const probe = {
    httpGet: { path: '/healthz', port: SECURE_PORT, scheme: 'HTTPS' },
  };
  return {
    apiVersion: 'apps/v1',
    kind: 'Deployment',
    metadata: { ...metadata(NAME), labels: { ...POD_LABELS } },
    spec: {
      replicas: 2,
      selector: { matchLabels: { ...POD_LABELS } },
      template: {
        metadata: { labels: { ...POD_LABELS } },
        spec: {
          serviceAccountName: NAME,
          priorityClassName: 'system-cluster-critical',
          containers: [
            {
              name: 'kube-scheduler',
              image,
              command: [
                '/usr/local/bin/kube-scheduler',
                `--config=${CONFIG_DIR}/${CONFIG_FILE}`,
              ],
              livenessProbe: { ...probe, initialDelaySeconds: 15 },
              readinessProbe: probe,
              resources: { requests: { cpu: '100m', memory: '128Mi' } },
              securityContext: { privileged: false },
              volumeMounts: [
                { name: 'config', mountPath: CONFIG_DIR, readOnly: true },
              ],
            },
          ],
          volumes: [{ name: 'config', configMap: { name: CONFIG_MAP } }],
        },
      },
    },
  };
}

/**
 * Every object of the scheduler, in the order a reader meets them: who it
 * runs as, what it may do, its profile, then the Deployment of
 * `registry.k8s.io/kube-scheduler:<version>`.
 */
export function binPackingSchedulerObjects(
  version: string,
): Record<string, unknown>[] {
  return [
    { apiVersion: 'v1', kind: 'ServiceAccount', metadata: metadata(NAME) },
    clusterRoleBinding('system:kube-scheduler', 'kube-scheduler'),
    clusterRoleBinding('system:volume-scheduler', 'volume-scheduler'),
    roleBinding(
      `${NAME}-extension-apiserver-authentication-reader`,
      'extension-apiserver-authentication-reader',
    ),
    leaseRole(),
    roleBinding(`${NAME}-leader-election`, `${NAME}-leader-election`),
    {
      apiVersion: 'v1',
      kind: 'ConfigMap',
      metadata: metadata(CONFIG_MAP),
      data: { [CONFIG_FILE]: stringify(binPackingSchedulerConfig()) },
    },
    deployment(`registry.k8s.io/kube-scheduler:${version}`),
  ];
}
