/** Requests and a cluster for publisher tests (real catalog, real planner). */
import {
  builtinCatalog,
  GpuRequest,
  parseGpuRequest,
  resolveClusterProfile,
} from '@gpu-gitops/plugin-gpu-common';

export const catalog = builtinCatalog;
export const cluster = resolveClusterProfile({ name: 'prod' });

export function gpuRequest(
  name: string,
  gpu: Partial<GpuRequest['spec']['gpu']> = {},
  namespace = 'ml',
): GpuRequest {
  return parseGpuRequest({
    apiVersion: 'gpu.backstage.io/v1alpha1',
    kind: 'GpuRequest',
    metadata: { name, namespace },
    spec: {
      owner: 'group:default/ml-platform',
      gpu: {
        model: 't4',
        sharing: 'time-slicing',
        replicas: 2,
        vramGiB: 4,
        ...gpu,
      },
      workload: { image: `ghcr.io/acme/${name}:1.0.0` },
    },
  });
}

/** A repository whose prod cluster the gpu-cluster-bootstrap has set up. */
export const seedFiles = {
  'README.md': '# GitOps\n',
  'clusters/prod/argocd-app.yaml': 'kind: Application\n',
  'clusters/prod/gpu/kustomization.yaml':
    'apiVersion: kustomize.config.k8s.io/v1beta1\nkind: Kustomization\n',
  'apps/web/frontend/deployment.yaml':
    'apiVersion: apps/v1\nkind: Deployment\nmetadata:\n  name: frontend\n  namespace: web\n',
};
