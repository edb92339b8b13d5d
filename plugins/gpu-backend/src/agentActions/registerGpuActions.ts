/**
 * The GPU actions a person uses, in Backstage's actions registry (exposed to
 * AI assistants by the MCP actions backend): plan and estimate read the
 * allocation index as POST /plan does; filing and releasing run the product's
 * templates as the caller, so every check of the forms applies.
 */
import type { PermissionsService } from '@backstage/backend-plugin-api';
import type { ActionsRegistryService } from '@backstage/backend-plugin-api/alpha';
import type { ScaffolderService } from '@backstage/plugin-scaffolder-node';
import { registerEstimateCostAction } from './estimateCostAction';
import { registerOpenRequestAction } from './openRequestAction';
import {
  registerPlanRequestAction,
  type AgentPlanningSource,
} from './planRequestAction';
import { registerReleaseRequestAction } from './releaseRequestAction';

/** An agent waits this long for a pull request (a fresh clone and the kustomize builds included). */
const TEMPLATE_TASK_TIMEOUT_MS = 10 * 60_000;

export function registerGpuActions(options: {
  registry: ActionsRegistryService;
  scaffolder: ScaffolderService;
  permissions: PermissionsService;
  planning: AgentPlanningSource;
}): void {
  const { registry, scaffolder, planning } = options;
  const run = {
    permissions: options.permissions,
    timeoutMs: TEMPLATE_TASK_TIMEOUT_MS,
  };
  registerPlanRequestAction(registry, planning);
  registerEstimateCostAction(registry, planning);
  registerOpenRequestAction(registry, scaffolder, run);
  registerReleaseRequestAction(registry, scaffolder, run);
}
