import { useApi } from '@backstage/core-plugin-api';
import {
  builtinCatalog,
  describeIssue,
  fieldLabel,
  gpuModelChoices,
  SHARING_MODES,
  type ClusterCapabilities,
  type QuotaUse,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import type {
  CustomFieldValidator,
  FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import {
  Box,
  FormControl,
  MenuItem,
  TextField,
  Typography,
} from '@material-ui/core';
import { useEffect, useMemo, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import useDebounce from 'react-use/esm/useDebounce';
import { gpuApiRef } from '../api/GpuApi';
import { GpuPlanRejectedError } from '../api/GpuPlanRejectedError';
import { Choice } from './Choice';
import { ClusterSelect } from './ClusterSelect';
import { PlanPreview } from './PlanPreview';
import {
  DEFAULT_PICKER_VALUE,
  localProblems,
  previewRequest,
  type GpuRequestPickerValue,
} from './previewRequest';

/**
 *  `ui:options` of the field.
 *
 * @public
 */
export type GpuRequestPickerUiOptions = {
  /** Quiet time after the last keystroke before the preview asks the backend (ms, default 500). */
  debounceMs?: number;
  /** Offer only these model ids (plus `auto`). */
  allowedModels?: string[];
};

const SHARING_LABELS: Record<SharingMode, string> = {
  exclusive: 'Exclusive — whole GPUs per replica',
  'time-slicing': 'Time-slicing — replicas take turns, memory NOT isolated',
  mps: 'MPS — concurrent clients with a pinned memory limit each',
  mig: 'MIG — hardware-isolated GPU instances',
  dra: 'DRA — resource claims (static pools)',
};

const AUTO_LABEL = 'Automatic — the cheapest model that fits';

/** A number box's value: a blank box is `null` (required, never a default). */
function toNumber(typed: string): number | null {
  return typed.trim() === '' ? null : Number(typed);
}

/** A form field's text, or undefined while it is empty. */
function text(value: unknown): string | undefined {
  return typeof value === 'string' && value !== '' ? value : undefined;
}

/**
 * Scaffolder field: the GPU part of a request (cluster, model, sharing,
 * replicas, VRAM). The cluster is one of the configured profiles; models and
 * sharing modes the cluster cannot run, or the owner's policy forbids, are
 * offered disabled with the reason (the backend's `GET /clusters`, the rule
 * the planner refuses with). The live plan preview comes from the backend,
 * with the owner's policy and quota checked as the actions check them, and
 * refreshes once the user stops typing.
 *
 * @public
 */
export function GpuRequestPicker(
  props: FieldExtensionComponentProps<
    GpuRequestPickerValue,
    GpuRequestPickerUiOptions
  >,
) {
  const {
    formData,
    onChange,
    uiSchema,
    rawErrors,
    formContext,
    schema,
    errorSchema,
  } = props;
  // The template schema's own errors for one box (a blank or out-of-range value), shown under it.
  const boxError = (key: keyof GpuRequestPickerValue) => {
    const errors = (
      errorSchema as Record<string, { __errors?: string[] }> | undefined
    )?.[key]?.__errors;
    return errors && errors.length > 0 ? errors.join('; ') : undefined;
  };
  const gpuApi = useApi(gpuApiRef);
  const options = (uiSchema?.['ui:options'] ?? {}) as GpuRequestPickerUiOptions;
  const value: GpuRequestPickerValue = { ...DEFAULT_PICKER_VALUE, ...formData };
  const numberText = (n: number | null | undefined) =>
    n === null || n === undefined || Number.isNaN(n) ? '' : String(n);
  // Text of the number boxes as typed ("", "1.", ...), the value keeps numbers.
  const [replicasText, setReplicasText] = useState(numberText(value.replicas));
  const [vramText, setVramText] = useState(numberText(value.vramGiB));
  const [gpusText, setGpusText] = useState(
    numberText(value.gpusPerReplica ?? 1),
  );

  // Store the defaults so the template gets a complete value even untouched.
  useEffect(() => {
    if (!formData) onChange(value);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const update = (patch: Partial<GpuRequestPickerValue>) =>
    onChange({ ...value, ...patch });

  const otherFields = (formContext?.formData ?? {}) as Record<string, unknown>;
  const owner = text(otherFields.owner);

  const clusters = useAsync(
    () => gpuApi.getClusters(owner ? { owner } : undefined),
    [gpuApi, owner],
  );
  const clusterName = value.cluster || clusters.value?.defaultCluster;
  const cluster: ClusterCapabilities | undefined =
    clusters.value?.clusters.find(c => c.name === clusterName);

  // Name the default cluster once it is known, so the request says where it goes.
  useEffect(() => {
    if (!value.cluster && clusters.value) {
      update({ cluster: clusters.value.defaultCluster });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clusters.value]);

  const models = useMemo(() => {
    const all = cluster?.models ?? gpuModelChoices(builtinCatalog);
    return options.allowedModels
      ? all.filter(m => options.allowedModels!.includes(m.id))
      : all;
  }, [cluster, options.allowedModels]);
  // Which models and modes a cluster can run comes with its capabilities: until
  // they are read, a choice could be offered that the cluster then refuses, and
  // the menu would change under the user's pointer. If they cannot be read, the
  // built-in catalog is offered and the preview names what the cluster refuses.
  const choicesPending = clusters.loading;
  const chosenModel = cluster?.models.find(m => m.id === value.model);
  const modelReason = (id: string) => {
    const model = cluster?.models.find(m => m.id === id);
    return (model?.unavailable ?? model?.modes[value.sharing])?.reason;
  };
  const modeReason = (mode: SharingMode) =>
    (
      cluster?.sharingModes.find(m => m.mode === mode)?.unavailable ??
      chosenModel?.modes[mode]
    )?.reason;

  const request = previewRequest(value, otherFields);
  // The boxes as typed go into the key too: a blank one is a problem, never
  // the default the request carries in its place.
  const requestKey = JSON.stringify({ request, cluster: clusterName, value });

  const [debouncedKey, setDebouncedKey] = useState(requestKey);
  useDebounce(() => setDebouncedKey(requestKey), options.debounceMs ?? 500, [
    requestKey,
  ]);

  const problems = localProblems(value);
  const preview = useAsync(async () => {
    const asked = JSON.parse(debouncedKey);
    if (localProblems(asked.value).length > 0) return undefined;
    return gpuApi.previewPlan(asked.request, { cluster: asked.cluster });
  }, [gpuApi, debouncedKey]);

  // The quota before (or without) a plan: what the owner holds on the cluster.
  const held = useAsync(async () => {
    if (!owner) return undefined;
    return gpuApi.getQuota({
      owner,
      cluster: clusterName,
      namespace: request.metadata.namespace,
      name: request.metadata.name,
    });
  }, [
    gpuApi,
    owner,
    clusterName,
    request.metadata.namespace,
    request.metadata.name,
  ]);
  const rejection =
    preview.error instanceof GpuPlanRejectedError ? preview.error : undefined;
  // Only a named owner has a quota (the preview's stand-in owner has none).
  let quota: QuotaUse | undefined;
  if (owner) {
    quota =
      problems.length === 0
        ? (preview.value?.quota ?? rejection?.quota ?? held.value)
        : held.value;
  }

  return (
    <FormControl fullWidth margin="normal" error={(rawErrors?.length ?? 0) > 0}>
      <Typography variant="subtitle1">
        {schema?.title ?? 'GPU request'}
      </Typography>
      {schema?.description && (
        <Typography variant="body2" color="textSecondary">
          {schema.description}
        </Typography>
      )}
      <Box display="grid" gridGap={16} mt={1}>
        <ClusterSelect
          id="gpu-cluster"
          label={fieldLabel('spec.cluster')}
          value={clusterName}
          clusters={clusters}
          onChange={cluster => update({ cluster })}
        />
        <TextField
          select
          id="gpu-model"
          label={fieldLabel('spec.gpu.model')}
          value={value.model}
          disabled={choicesPending}
          onChange={e => update({ model: e.target.value as string })}
          SelectProps={{
            renderValue: v =>
              v === 'auto'
                ? AUTO_LABEL
                : (models.find(m => m.id === v)?.label ?? String(v)),
          }}
        >
          <MenuItem value="auto">
            <Choice label={AUTO_LABEL} />
          </MenuItem>
          {models.map(m => (
            <MenuItem key={m.id} value={m.id} disabled={!!modelReason(m.id)}>
              <Choice label={m.label} reason={modelReason(m.id)} />
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          id="gpu-sharing"
          label={fieldLabel('spec.gpu.sharing')}
          value={value.sharing}
          disabled={choicesPending}
          onChange={e => {
            const sharing = e.target.value as SharingMode;
            update({
              sharing,
              gpusPerReplica:
                sharing === 'exclusive' ? value.gpusPerReplica : undefined,
            });
          }}
          SelectProps={{
            renderValue: v => SHARING_LABELS[v as SharingMode] ?? String(v),
          }}
        >
          {SHARING_MODES.map(mode => (
            <MenuItem key={mode} value={mode} disabled={!!modeReason(mode)}>
              <Choice label={SHARING_LABELS[mode]} reason={modeReason(mode)} />
            </MenuItem>
          ))}
        </TextField>
        <TextField
          id="gpu-replicas"
          error={!!boxError('replicas')}
          helperText={boxError('replicas')}
          label={fieldLabel('spec.gpu.replicas')}
          type="number"
          inputProps={{ min: 1, step: 1 }}
          value={replicasText}
          onChange={e => {
            setReplicasText(e.target.value);
            update({ replicas: toNumber(e.target.value) });
          }}
        />
        <TextField
          id="gpu-vram"
          error={!!boxError('vramGiB')}
          helperText={boxError('vramGiB')}
          label={`${fieldLabel('spec.gpu.vramGiB')} (GiB)`}
          type="number"
          inputProps={{ min: 0, step: 'any' }}
          value={vramText}
          onChange={e => {
            setVramText(e.target.value);
            update({ vramGiB: toNumber(e.target.value) });
          }}
        />
        {value.sharing === 'exclusive' && (
          <TextField
            id="gpu-gpus-per-replica"
            error={!!boxError('gpusPerReplica')}
            helperText={boxError('gpusPerReplica')}
            label={fieldLabel('spec.gpu.gpusPerReplica')}
            type="number"
            inputProps={{ min: 1, step: 1 }}
            value={gpusText}
            onChange={e => {
              setGpusText(e.target.value);
              update({ gpusPerReplica: toNumber(e.target.value) });
            }}
          />
        )}
      </Box>
      {/* The step's refusals (rawErrors) are listed under the field by the form itself. */}
      <PlanPreview
        loading={preview.loading || debouncedKey !== requestKey}
        preview={preview.value}
        error={preview.error}
        problems={problems}
        quota={quota}
      />
    </FormControl>
  );
}

/**
 * Field validation for the scaffolder, run on Next (Review): what the
 * preview shows blocks the step. A blank or invalid box is refused here; a
 * complete request is planned by the backend with the owner's policy and
 * quota, and each refusal is a reason the step cannot go on. When the
 * backend cannot be reached, the step goes on: the actions decide when the
 * task runs.
 *
 * @public
 */
export const validateGpuRequestPicker: CustomFieldValidator<
  GpuRequestPickerValue
> = async (data, validation, context) => {
  const value = { ...DEFAULT_PICKER_VALUE, ...data };
  const problems = localProblems(value);
  for (const problem of problems) validation.addError(problem);
  const gpuApi = context?.apiHolder.get(gpuApiRef);
  if (problems.length > 0 || !gpuApi) return;
  try {
    await gpuApi.previewPlan(
      previewRequest(value, context.formData as Record<string, unknown>),
      { cluster: value.cluster || undefined },
    );
  } catch (error) {
    if (!(error instanceof GpuPlanRejectedError)) return;
    if (error.issues.length === 0) validation.addError(error.message);
    for (const issue of error.issues) {
      validation.addError(describeIssue(issue));
    }
  }
};
