import type { GpuModel } from '../catalog/types';
import {
  sharingModeUnavailable,
  unavailableIssue,
} from '../cluster/capabilities';
import type { ClusterGpuStack } from '../cluster/gpuStack';
import type { ClusterProfile } from '../cluster/types';
import { GpuInputError, isGpuInputError } from '../errors';
import type { GpuRequest } from '../request/types';
import type { ModeDecision } from './modeDecision';
import { decideDra } from './sharingDra';
import { decideExclusive } from './sharingExclusive';
import { decideMig } from './sharingMig';
import { decideOnNodeClassConfig, nodeClassConfig } from './nodeClassConfig';
import { decideMps, MPS_NEEDS_TWO_CLIENTS } from './sharingMps';
import { decideTimeSlicing, SLICE_BELOW_REQUEST } from './sharingTimeSlicing';

/** The slicing a new pool of `model` would get for the request. */
export function decideSharing(
  request: GpuRequest,
  model: GpuModel,
  cluster: ClusterProfile,
  alternatives: () => string,
  stack?: ClusterGpuStack,
): ModeDecision {
  // The rule the request form uses to offer a mode disabled on this cluster.
  const unavailable = sharingModeUnavailable(
    cluster,
    request.spec.gpu.sharing,
    stack,
  );
  if (unavailable) throw new GpuInputError([unavailableIssue(unavailable)]);
  try {
    switch (request.spec.gpu.sharing) {
      case 'exclusive':
        return decideExclusive(request, model);
      case 'time-slicing': {
        const fixed = nodeClassConfig(stack);
        return fixed
          ? decideOnNodeClassConfig(request, model, cluster.name, fixed)
          : decideTimeSlicing(request, model);
      }
      case 'mps':
        return decideMps(request, model);
      case 'mig':
        return decideMig(request, model, cluster);
      case 'dra':
        return decideDra(request, model, cluster);
      default:
        throw new GpuInputError([
          {
            path: 'spec.gpu.sharing',
            rule: 'enum',
            message: `unknown sharing mode "${String(request.spec.gpu.sharing)}"`,
          },
        ]);
    }
  } catch (error) {
    // Memory below the ask is never planned: say what would fit instead.
    const issue = isGpuInputError(error) ? error.issues[0] : undefined;
    if (
      issue &&
      (issue.rule === SLICE_BELOW_REQUEST ||
        issue.rule === MPS_NEEDS_TWO_CLIENTS)
    ) {
      throw new GpuInputError([
        { ...issue, message: `${issue.message}. ${alternatives()}` },
      ]);
    }
    throw error;
  }
}
