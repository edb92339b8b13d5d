import {
  builtinCatalog,
  clusterCapabilities,
  formatPlanText,
  isGpuInputError,
  parseGpuRequest,
  plan,
  planToJson,
  resolveClusterProfile,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { GpuPlanRejectedError } from '../api/GpuPlanRejectedError';
import { fakeGpuApi } from './fakeGpuApi';

/** The demo's clusters: dev runs the mixed MIG strategy (no MPS), inference the single one. */
export const TEST_CLUSTERS = [
  resolveClusterProfile({ name: 'dev', region: 'us-east-1' }),
  resolveClusterProfile({
    name: 'inference',
    migStrategy: 'single',
    region: 'eu-west-1',
  }),
];

/**
 * A GpuApi whose plan preview runs the real planner on an empty repository,
 * the way the backend's POST /plan does (on the cluster asked for, default
 * dev), serves the clusters' real capabilities and records every request.
 */
export function plannerBackedGpuApi() {
  const requests: GpuRequest[] = [];
  const api = fakeGpuApi({
    previewPlan: async (request: GpuRequest, options) => {
      requests.push(request);
      const cluster =
        TEST_CLUSTERS.find(c => c.name === options?.cluster) ??
        TEST_CLUSTERS[0];
      try {
        const planned = plan(parseGpuRequest(request), builtinCatalog, cluster);
        return { plan: planToJson(planned), summary: formatPlanText(planned) };
      } catch (error) {
        if (isGpuInputError(error)) {
          throw new GpuPlanRejectedError(error.message, error.issues);
        }
        throw error;
      }
    },
    getClusters: async () => ({
      defaultCluster: 'dev',
      clusters: TEST_CLUSTERS.map(c => clusterCapabilities(c, builtinCatalog)),
    }),
  });
  return { api, requests };
}
