import { useApi } from '@backstage/core-plugin-api';
import {
  builtinCatalog,
  gpuModelChoices,
  SHARING_MODES,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import {
  Box,
  FormControl,
  FormHelperText,
  MenuItem,
  TextField,
  Typography,
} from '@material-ui/core';
import { useEffect, useMemo, useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import useDebounce from 'react-use/esm/useDebounce';
import { gpuApiRef } from '../api/GpuApi';
import { PlanPreview } from './PlanPreview';
import {
  DEFAULT_PICKER_VALUE,
  localProblems,
  previewRequest,
  type GpuRequestPickerValue,
} from './previewRequest';

/** `ui:options` of the field. */
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

/** A number input's text: an empty box stays empty instead of becoming 0. */
function toNumber(text: string): number {
  return text.trim() === '' ? NaN : Number(text);
}

/**
 * Scaffolder field: the GPU part of a request (model, sharing, replicas,
 * VRAM) with the catalog's models (memory, price) and a live plan preview
 * from the gpu backend, refreshed once the user stops typing.
 */
export function GpuRequestPicker(
  props: FieldExtensionComponentProps<
    GpuRequestPickerValue,
    GpuRequestPickerUiOptions
  >,
) {
  const { formData, onChange, uiSchema, rawErrors, formContext, schema } =
    props;
  const gpuApi = useApi(gpuApiRef);
  const options = (uiSchema?.['ui:options'] ?? {}) as GpuRequestPickerUiOptions;
  const value: GpuRequestPickerValue = { ...DEFAULT_PICKER_VALUE, ...formData };
  // Text of the number boxes as typed ("", "1.", ...), the value keeps numbers.
  const [replicasText, setReplicasText] = useState(String(value.replicas));
  const [vramText, setVramText] = useState(String(value.vramGiB));
  const [gpusText, setGpusText] = useState(String(value.gpusPerReplica ?? 1));

  // Store the defaults so the template gets a complete value even untouched.
  useEffect(() => {
    if (!formData) onChange(value);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const choices = useMemo(() => {
    const all = gpuModelChoices(builtinCatalog);
    return options.allowedModels
      ? all.filter(c => options.allowedModels!.includes(c.id))
      : all;
  }, [options.allowedModels]);

  const update = (patch: Partial<GpuRequestPickerValue>) =>
    onChange({ ...value, ...patch });

  const otherFields = (formContext?.formData ?? {}) as Record<string, unknown>;
  const request = previewRequest(value, otherFields);
  const requestKey = JSON.stringify(request);
  const cluster =
    typeof otherFields.cluster === 'string' && otherFields.cluster !== ''
      ? otherFields.cluster
      : undefined;

  const [debouncedKey, setDebouncedKey] = useState(requestKey);
  useDebounce(() => setDebouncedKey(requestKey), options.debounceMs ?? 500, [
    requestKey,
  ]);

  const problems = localProblems(value);
  const preview = useAsync(async () => {
    if (localProblems(JSON.parse(debouncedKey).spec.gpu).length > 0) {
      return undefined;
    }
    return gpuApi.previewPlan(JSON.parse(debouncedKey), { cluster });
  }, [gpuApi, debouncedKey, cluster]);

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
        <TextField
          select
          id="gpu-model"
          label="GPU model"
          value={value.model}
          onChange={e => update({ model: e.target.value as string })}
        >
          <MenuItem value="auto">
            Automatic — the cheapest model that fits
          </MenuItem>
          {choices.map(c => (
            <MenuItem key={c.id} value={c.id}>
              {c.label}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          select
          id="gpu-sharing"
          label="Sharing mode"
          value={value.sharing}
          onChange={e => {
            const sharing = e.target.value as SharingMode;
            update({
              sharing,
              gpusPerReplica:
                sharing === 'exclusive' ? value.gpusPerReplica : undefined,
            });
          }}
        >
          {SHARING_MODES.map(mode => (
            <MenuItem key={mode} value={mode}>
              {SHARING_LABELS[mode]}
            </MenuItem>
          ))}
        </TextField>
        <TextField
          id="gpu-replicas"
          label="Replicas"
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
          label="GPU memory per replica (GiB)"
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
            label="GPUs per replica"
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
      {rawErrors?.map(e => (
        <FormHelperText key={e}>{e}</FormHelperText>
      ))}
      <PlanPreview
        loading={preview.loading || debouncedKey !== requestKey}
        preview={preview.value}
        error={preview.error}
        problems={problems}
      />
    </FormControl>
  );
}

/**
 * Field validation for the scaffolder: the same local checks as the preview
 * (the backend re-validates the whole request when the task runs).
 */
export function validateGpuRequestPicker(
  value: GpuRequestPickerValue | undefined,
  validation: { addError(message: string): void },
) {
  for (const problem of localProblems({ ...DEFAULT_PICKER_VALUE, ...value })) {
    validation.addError(problem);
  }
}
