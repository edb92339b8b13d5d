import { expiresAfterDays } from '../lifecycle/expiry';
import { GPU_REQUEST_API_VERSION } from './schema';
import type {
  CapacityType,
  GpuRequest,
  SharingMode,
  WorkloadKind,
} from './types';

/**
 *  What a form or a template expression leaves in a field nobody filled.
 *
 * @public
 */
export type BlankFormValue = '' | null | undefined;

/**
 * A GpuRequest as flat fields, the way the scaffolder form and the actions'
 * inputs carry it (`existingKind` / `existingName` / `existingContainer`
 * for an existing workload). A blank field (`''` or `null`, as templates
 * render a missing parameter) counts as absent.
 *
 * @public
 */
export interface GpuRequestFormValues {
  name: string;
  namespace: string;
  owner: string;
  cluster?: string | BlankFormValue;
  model?: string | BlankFormValue;
  sharing?: SharingMode | BlankFormValue;
  replicas?: number | BlankFormValue;
  vramGiB: number;
  gpusPerReplica?: number | BlankFormValue;
  slicesPerGpu?: number | BlankFormValue;
  image?: string | BlankFormValue;
  existingKind?: WorkloadKind | BlankFormValue;
  existingName?: string | BlankFormValue;
  existingContainer?: string | BlankFormValue;
  capacityTypes?: CapacityType[] | BlankFormValue;
  /** "Release after N days": the request expires that many days after it is sent. */
  releaseAfterDays?: number | BlankFormValue;
}

function present<T>(value: T | BlankFormValue): value is T {
  return value !== undefined && value !== null && value !== '';
}

/**
 * The GpuRequest the flat fields describe, with the form's defaults: model
 * `auto`, `exclusive`, 1 replica, 1 GPU per replica, an existing workload's
 * kind `Deployment`, capacity `on-demand`; "release after N days" becomes
 * `spec.expiresAt` counted from `now`. Not validated: `parseGpuRequest`
 * (the actions) or `POST /plan` (the form's preview) checks every value, so
 * both refuse the same things with the same messages.
 *
 * @public
 */
export function gpuRequestFromFormValues(
  values: GpuRequestFormValues,
  now: Date = new Date(),
): GpuRequest {
  const gpu: GpuRequest['spec']['gpu'] = {
    model: present(values.model) ? values.model : 'auto',
    sharing: present(values.sharing) ? values.sharing : 'exclusive',
    replicas: present(values.replicas) ? values.replicas : 1,
    vramGiB: values.vramGiB,
    gpusPerReplica: present(values.gpusPerReplica) ? values.gpusPerReplica : 1,
  };
  if (present(values.slicesPerGpu)) gpu.slicesPerGpu = values.slicesPerGpu;

  const workload: GpuRequest['spec']['workload'] = {};
  if (present(values.image)) workload.image = values.image;
  if (present(values.existingName)) {
    workload.existing = {
      kind: present(values.existingKind) ? values.existingKind : 'Deployment',
      name: values.existingName,
      ...(present(values.existingContainer)
        ? { container: values.existingContainer }
        : {}),
    };
  }

  return {
    apiVersion: GPU_REQUEST_API_VERSION,
    kind: 'GpuRequest',
    metadata: { name: values.name, namespace: values.namespace },
    spec: {
      owner: values.owner,
      ...(present(values.cluster) ? { cluster: values.cluster } : {}),
      gpu,
      workload,
      capacityTypes:
        present(values.capacityTypes) && values.capacityTypes.length > 0
          ? values.capacityTypes
          : ['on-demand'],
      ...(present(values.releaseAfterDays)
        ? { expiresAt: expiresAfterDays(values.releaseAfterDays, now) }
        : {}),
    },
  };
}
