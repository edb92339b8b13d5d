import { useApi, type ApiHolder } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import {
  formatReplicaCount,
  type RepositoryWorkload,
  type WorkloadKind,
} from '@gpu-gitops/plugin-gpu-common';
import {
  Box,
  FormControl,
  FormHelperText,
  MenuItem,
  TextField,
  Typography,
} from '@material-ui/core';
import { useEffect, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import useDebounce from 'react-use/esm/useDebounce';
import { gpuApiRef, type GpuApi } from '../api/GpuApi';
import {
  containerChoiceProblem,
  containerNames,
  existingWorkloadOf,
  type FormWorkloadRef,
} from './existingWorkload';

/**
 *  `ui:options` of the field.
 *
 * @public
 */
export type GpuWorkloadContainerPickerUiOptions = {
  /** Quiet time after the last keystroke in the workload name before the repository is asked (ms, default 500). */
  debounceMs?: number;
};

/** What the repository holds under the form's workload name, in its namespace. */
interface Lookup {
  /** The workload this answer is for (namespace, kind, name as JSON). */
  key: string;
  /** Workloads of the form's kind (one per overlay that deploys it there). */
  matches: RepositoryWorkload[];
  /** Workloads of that name and another kind. */
  otherKinds: WorkloadKind[];
  /** The kinds the repository index reads. */
  kinds: WorkloadKind[];
}

async function lookUp(
  api: GpuApi,
  ref: FormWorkloadRef,
  key: string,
): Promise<Lookup> {
  const { workloads, kinds } = await api.getWorkloads({
    namespace: ref.namespace,
    name: ref.name,
  });
  return {
    key,
    matches: workloads.filter(w => w.kind === ref.kind),
    otherKinds: [
      ...new Set(workloads.filter(w => w.kind !== ref.kind).map(w => w.kind)),
    ],
    kinds,
  };
}

/** "3 replicas now", or per overlay when several deploy it there. */
function replicasNow(matches: RepositoryWorkload[]): string {
  return matches
    .map(
      w =>
        `${formatReplicaCount(w.kind, w.replicas)} now${
          matches.length > 1 ? ` (${w.overlay ?? w.path})` : ''
        }`,
    )
    .join('; ');
}

function notFoundText(ref: FormWorkloadRef, lookup: Lookup): string {
  const where = `No ${ref.kind} "${ref.name}" in namespace "${ref.namespace}" in the GitOps repository.`;
  const otherKinds =
    lookup.otherKinds.length > 0
      ? ` It holds a ${lookup.otherKinds.join(' and a ')} of that name: choose that kind.`
      : '';
  return `${where}${otherKinds} The repository index knows workloads of kind ${lookup.kinds.join(', ')} in its workload folders; if yours is elsewhere, type the container's name (the request checks it when it runs).`;
}

/**
 * Scaffolder field: the container of an existing workload that gets the GPU,
 * chosen among the containers the GitOps repository's workload has (read
 * through the gpu backend's `GET /workloads` from the sibling form values
 * `namespace`, `existingKind` and `existingName`), with the replicas it runs
 * now. The only container is chosen by itself; a workload the repository
 * index does not know takes a typed name.
 *
 * @public
 */
export function GpuWorkloadContainerPicker(
  props: FieldExtensionComponentProps<
    string,
    GpuWorkloadContainerPickerUiOptions
  >,
) {
  const { formData, onChange, uiSchema, rawErrors, formContext, schema } =
    props;
  const gpuApi = useApi(gpuApiRef);
  const options = (uiSchema?.['ui:options'] ??
    {}) as GpuWorkloadContainerPickerUiOptions;
  const ref = existingWorkloadOf(
    (formContext?.formData ?? {}) as Record<string, unknown>,
  );
  const workload = useWorkloadLookup(gpuApi, ref, options.debounceMs ?? 500);
  const { containers } = workload;
  const value = formData ?? '';

  useEffect(() => {
    // Stored from the start (even empty), so the form validates the choice.
    if (formData === undefined) {
      onChange('');
      return;
    }
    if (containers.length === 1 && value !== containers[0]) {
      onChange(containers[0]);
    } else if (containers.length > 1 && value && !containers.includes(value)) {
      // Chosen for another workload name: choose again.
      onChange('');
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [formData, containers.join(',')]);

  const problem =
    workload.found && ref
      ? containerChoiceProblem(ref, workload.found.matches, value)
      : undefined;

  return (
    <FormControl fullWidth margin="normal" error={(rawErrors?.length ?? 0) > 0}>
      {schema?.description && (
        <Typography variant="body2" color="textSecondary">
          {schema.description}
        </Typography>
      )}
      <ContainerChoice
        workloadRef={ref}
        workload={workload}
        label={schema?.title ?? 'Container that gets the GPU'}
        value={value}
        onChange={onChange}
      />
      {problem && (rawErrors?.length ?? 0) === 0 && (
        <FormHelperText>{problem}</FormHelperText>
      )}
      {rawErrors?.map(e => (
        <FormHelperText key={e}>{e}</FormHelperText>
      ))}
    </FormControl>
  );
}

/**
 * What the repository holds under the form's workload name, asked once the
 * user stops typing. `settled` once the answer (or the error) is for the
 * workload named now: right after the name changes, the last answer is for
 * the previous one.
 */
function useWorkloadLookup(
  gpuApi: GpuApi,
  ref: FormWorkloadRef | undefined,
  debounceMs: number,
) {
  const refKey = ref ? JSON.stringify([ref.namespace, ref.kind, ref.name]) : '';
  const [debouncedKey, setDebouncedKey] = useState(refKey);
  useDebounce(() => setDebouncedKey(refKey), debounceMs, [refKey]);
  const lookup = useAsync(async () => {
    if (!debouncedKey) return undefined;
    const [namespace, kind, name] = JSON.parse(debouncedKey);
    return lookUp(gpuApi, { namespace, kind, name }, debouncedKey);
  }, [gpuApi, debouncedKey]);
  const settled =
    ref !== undefined &&
    debouncedKey === refKey &&
    !lookup.loading &&
    (lookup.error !== undefined || lookup.value?.key === refKey);
  const found =
    settled && lookup.value && lookup.value.matches.length > 0
      ? lookup.value
      : undefined;
  return {
    settled,
    error: settled ? lookup.error : undefined,
    /** The answer when it is settled, found or not. */
    answer: settled ? lookup.value : undefined,
    found,
    containers: found ? containerNames(found.matches) : [],
  };
}

/** The field's body for each state of the lookup: a hint, a wait, a typed name or the containers to choose from. */
function ContainerChoice(props: {
  workloadRef: FormWorkloadRef | undefined;
  workload: ReturnType<typeof useWorkloadLookup>;
  label: string;
  value: string;
  onChange: (container: string) => void;
}) {
  const { workloadRef: ref, workload, label, value, onChange } = props;
  const freeText = (
    <TextField
      id="gpu-workload-container"
      label={label}
      value={value}
      onChange={e => onChange(e.target.value)}
      helperText="Optional when the workload has one container."
    />
  );
  if (!ref) {
    return (
      <Typography variant="body2" color="textSecondary">
        Name the existing workload first; its containers are read from the
        GitOps repository.
      </Typography>
    );
  }
  if (!workload.settled) {
    return (
      <Typography variant="body2">
        Reading {ref.kind} {ref.name} from the GitOps repository…
      </Typography>
    );
  }
  if (workload.error) {
    return (
      <>
        <Typography variant="body2" color="error">
          Could not read the workload from the GitOps repository:{' '}
          {workload.error.message}
        </Typography>
        {freeText}
      </>
    );
  }
  if (!workload.found) {
    return (
      <>
        <Typography variant="body2" data-testid="gpu-workload-not-found">
          {notFoundText(ref, workload.answer!)}
        </Typography>
        {freeText}
      </>
    );
  }
  const { containers } = workload;
  return (
    <Box display="flex" alignItems="center" gridGap={16}>
      <Box flex={1}>
        <TextField
          select
          fullWidth
          id="gpu-workload-container"
          label={label}
          required={containers.length > 1}
          value={containers.includes(value) ? value : ''}
          onChange={e => onChange(e.target.value as string)}
        >
          {containers.map(name => (
            <MenuItem key={name} value={name}>
              {name}
            </MenuItem>
          ))}
        </TextField>
      </Box>
      <Typography variant="body2" data-testid="gpu-workload-replicas">
        {replicasNow(workload.found.matches)}
      </Typography>
    </Box>
  );
}

/**
 * Field validation for the scaffolder: a workload the repository holds with
 * several containers needs one chosen (and one it has), by the actions' own
 * rule. Nothing is refused when the repository index does not know the
 * workload or cannot be asked: the actions check again when they run.
 *
 * @public
 */
export async function validateGpuWorkloadContainerPicker(
  value: string | undefined,
  validation: { addError(message: string): void },
  context: { apiHolder: ApiHolder; formData?: Record<string, unknown> },
): Promise<void> {
  const ref = existingWorkloadOf(context.formData ?? {});
  const api = context.apiHolder.get(gpuApiRef);
  if (!ref || !api) return;
  let workloads: RepositoryWorkload[];
  try {
    ({ workloads } = await api.getWorkloads({
      namespace: ref.namespace,
      name: ref.name,
      kind: ref.kind,
    }));
  } catch {
    return;
  }
  const problem = containerChoiceProblem(ref, workloads, value);
  if (problem) validation.addError(problem);
}
