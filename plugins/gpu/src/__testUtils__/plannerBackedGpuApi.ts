import {
  builtinCatalog,
  defaultClusterProfile,
  formatPlanText,
  isGpuInputError,
  parseGpuRequest,
  plan,
  planToJson,
  type GpuRequest,
} from '@gpu-gitops/plugin-gpu-common';
import { GpuPlanRejectedError } from '../api/GpuPlanRejectedError';
import { fakeGpuApi } from './fakeGpuApi';

/**
 * A GpuApi whose plan preview runs the real planner on an empty repository,
 * the way the backend's POST /plan does, and records every request.
 */
export function plannerBackedGpuApi() {
  const requests: GpuRequest[] = [];
  const api = fakeGpuApi({
    previewPlan: async (request: GpuRequest) => {
      requests.push(request);
      try {
        const planned = plan(
          parseGpuRequest(request),
          builtinCatalog,
          defaultClusterProfile,
        );
        return { plan: planToJson(planned), summary: formatPlanText(planned) };
      } catch (error) {
        if (isGpuInputError(error)) {
          throw new GpuPlanRejectedError(error.message, error.issues);
        }
        throw error;
      }
    },
  });
  return { api, requests };
}
