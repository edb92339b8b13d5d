import {
  chooseContainer,
  isGpuInputError,
  isWorkloadKind,
  type RepositoryWorkload,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';

/** The existing workload the form's Workload step names. */
export interface FormWorkloadRef {
  namespace: string;
  kind: WorkloadKind;
  name: string;
  /** The container chosen for the GPU, when one is. */
  container?: string;
}

function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Reads the sibling form values the gpu-workload template names them by
 * (`namespace`, `existingKind`, `existingName`, `existingContainer`); kind
 * Deployment and namespace `default` when the form leaves them empty, as the
 * actions assume. Undefined until a workload name is typed.
 */
export function existingWorkloadOf(
  formData: Record<string, unknown>,
): FormWorkloadRef | undefined {
  const name = text(formData.existingName);
  if (!name) return undefined;
  const container = text(formData.existingContainer);
  return {
    namespace: text(formData.namespace) ?? 'default',
    kind: isWorkloadKind(formData.existingKind)
      ? formData.existingKind
      : 'Deployment',
    name,
    ...(container ? { container } : {}),
  };
}

/** The container names of the workloads (one per overlay), each once, in manifest order. */
export function containerNames(workloads: RepositoryWorkload[]): string[] {
  return [...new Set(workloads.flatMap(w => w.containers))];
}

/**
 * Why the chosen container does not do for the repository's workloads
 * (several and none chosen, or one they do not have), in the words of
 * gpu-common's `chooseContainer`, the rule the actions and the plan preview
 * apply; undefined when it does, or when the repository holds no such
 * workload (the actions then look further when they run).
 */
export function containerChoiceProblem(
  ref: FormWorkloadRef,
  workloads: RepositoryWorkload[],
  chosen: string | undefined,
): string | undefined {
  if (workloads.length === 0) return undefined;
  try {
    chooseContainer(
      {
        kind: ref.kind,
        name: ref.name,
        containers: containerNames(workloads).map(name => ({ name })),
      },
      chosen || undefined,
    );
    return undefined;
  } catch (error) {
    if (!isGpuInputError(error)) throw error;
    return error.issues.map(issue => issue.message).join(' ');
  }
}
