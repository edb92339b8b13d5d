import { useApi } from '@backstage/core-plugin-api';
import { describeIssue } from '@gpu-gitops/plugin-gpu-common';
import type {
  CustomFieldValidator,
  FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import { Box, FormControl, Typography } from '@material-ui/core';
import { useEffect } from 'react';
import { gpuApiRef } from '../api/GpuApi';
import { GpuPlanRejectedError } from '../api/GpuPlanRejectedError';
import { ChoiceFields, SizeFields } from './GpuRequestFields';
import { PlanPreview } from './PlanPreview';
import { useClusterChoices } from './useClusterChoices';
import { usePlanPreview } from './usePlanPreview';
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
  const { formData, onChange, uiSchema, rawErrors, formContext, schema } =
    props;
  const gpuApi = useApi(gpuApiRef);
  const options = (uiSchema?.['ui:options'] ?? {}) as GpuRequestPickerUiOptions;
  const value: GpuRequestPickerValue = { ...DEFAULT_PICKER_VALUE, ...formData };

  // Store the defaults so the template gets a complete value even untouched.
  useEffect(() => {
    if (!formData) onChange(value);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, []);

  const update = (patch: Partial<GpuRequestPickerValue>) =>
    onChange({ ...value, ...patch });

  const otherFields = (formContext?.formData ?? {}) as Record<string, unknown>;
  const owner = text(otherFields.owner);
  const choices = useClusterChoices(
    gpuApi,
    owner,
    value,
    options.allowedModels,
    update,
  );
  const preview = usePlanPreview(
    gpuApi,
    value,
    otherFields,
    choices.clusterName,
    owner,
    options.debounceMs ?? 500,
  );

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
        <ChoiceFields value={value} choices={choices} update={update} />
        <SizeFields
          value={value}
          update={update}
          boxError={key => schemaErrorOf(props.errorSchema, key)}
        />
      </Box>
      {/* The step's refusals (rawErrors) are listed under the field by the form's FieldErrorTemplate (FieldRefusals). */}
      <PlanPreview
        loading={preview.loading}
        preview={preview.preview}
        error={preview.error}
        problems={preview.problems}
        quota={preview.quota}
      />
    </FormControl>
  );
}

/** The template schema's own errors for one box (a blank or out-of-range value), shown under it. */
function schemaErrorOf(
  errorSchema: unknown,
  key: keyof GpuRequestPickerValue,
): string | undefined {
  const errors = (
    errorSchema as Record<string, { __errors?: string[] }> | undefined
  )?.[key]?.__errors;
  return errors && errors.length > 0 ? errors.join('; ') : undefined;
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
