import {
  fieldLabel,
  gpuRequestFromFormValues,
  type CapacityType,
  type GpuRequest,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import { existingWorkloadOf } from './existingWorkload';

/**
 *  What the GpuRequestPicker field stores in the form.
 *
 * @public
 */
export interface GpuRequestPickerValue {
  /** A configured cluster profile; empty for the default cluster. */
  cluster?: string;
  /** A catalog model id or `auto`. */
  model: string;
  sharing: SharingMode;
  /** `null` while the box is blank: an error, never a default. */
  replicas: number | null;
  /** `null` while the box is blank. */
  vramGiB: number | null;
  /** Exclusive mode only; `null` while the box is blank. */
  gpusPerReplica?: number | null;
}

export const DEFAULT_PICKER_VALUE: GpuRequestPickerValue = {
  model: 'auto',
  sharing: 'exclusive',
  replicas: 1,
  vramGiB: 8,
};

/** A blank box (or one the form could not read as a number). */
function blank(value: number | null | undefined): boolean {
  return value === null || value === undefined || Number.isNaN(value);
}

/**
 * Problems the form can see before asking the backend (which checks the
 * rest), in the form's words: a blank box is required, never a default.
 */
export function localProblems(value: GpuRequestPickerValue): string[] {
  const replicas = fieldLabel('spec.gpu.replicas');
  const vram = fieldLabel('spec.gpu.vramGiB');
  const gpus = fieldLabel('spec.gpu.gpusPerReplica');
  const problems: string[] = [];
  if (blank(value.replicas)) {
    problems.push(`${replicas} is required`);
  } else if (!Number.isInteger(value.replicas) || value.replicas! < 1) {
    problems.push(`${replicas} must be a whole number of at least 1`);
  }
  if (blank(value.vramGiB)) {
    problems.push(`${vram} is required`);
  } else if (!Number.isFinite(value.vramGiB) || value.vramGiB! <= 0) {
    problems.push(`${vram} must be more than 0 GiB`);
  }
  if (value.sharing === 'exclusive' && value.gpusPerReplica !== undefined) {
    if (blank(value.gpusPerReplica)) {
      problems.push(`${gpus} is required`);
    } else if (
      !Number.isInteger(value.gpusPerReplica) ||
      value.gpusPerReplica! < 1
    ) {
      problems.push(`${gpus} must be a whole number of at least 1`);
    }
  }
  return problems;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * The GpuRequest to preview, built as the actions build theirs (gpu-common
 * `gpuRequestFromFormValues`). The other form fields (the template's name,
 * namespace, owner, image / existing workload and its container) come from
 * the scaffolder's form data when the user has filled them; placeholders
 * stand in otherwise, since the plan's GPU figures do not depend on them.
 * An existing workload is sent as the form names it, so the backend answers
 * with its replicas now and refuses a missing container choice as the
 * actions will. GPUs per replica is sent as 1 outside exclusive mode, where
 * the field is hidden but may still hold an earlier value. Callers send it
 * only once `localProblems` finds none.
 */
export function previewRequest(
  value: GpuRequestPickerValue,
  formData: Record<string, unknown> = {},
): GpuRequest {
  const existing =
    formData.workloadType === 'existing'
      ? existingWorkloadOf(formData)
      : undefined;
  const capacityTypes = Array.isArray(formData.capacityTypes)
    ? formData.capacityTypes.filter(
        (c): c is CapacityType => c === 'spot' || c === 'on-demand',
      )
    : [];
  return gpuRequestFromFormValues({
    name: text(formData.name) ?? 'preview',
    namespace: text(formData.namespace) ?? 'default',
    owner: text(formData.owner) ?? 'group:default/preview',
    model: value.model,
    sharing: value.sharing,
    replicas: value.replicas as number,
    vramGiB: value.vramGiB as number,
    gpusPerReplica:
      value.sharing === 'exclusive' ? (value.gpusPerReplica ?? 1) : 1,
    ...(existing
      ? {
          existingKind: existing.kind,
          existingName: existing.name,
          existingContainer: existing.container,
        }
      : { image: text(formData.image) ?? 'registry.invalid/preview:latest' }),
    capacityTypes,
  });
}
