import { useApi } from '@backstage/core-plugin-api';
import {
  scaffolderApiRef,
  type FieldExtensionComponentProps,
} from '@backstage/plugin-scaffolder-react';
import { Box, Typography } from '@material-ui/core';
import { useState } from 'react';
import useAsync from 'react-use/esm/useAsync';
import useDebounce from 'react-use/esm/useDebounce';
import { backendReason } from '../api/backendReason';
import {
  readReleasePreview,
  releasePreviewTemplate,
  type ReleasePreview,
} from './releasePreview';

/**
 *  `ui:options` of the field.
 *
 * @public
 */
export type GpuReleasePreviewUiOptions = {
  /** Quiet time after the last keystroke in the name or namespace before the dry run (ms, default 500). */
  debounceMs?: number;
};

const DNS_LABEL = /^[a-z0-9]([-a-z0-9]*[a-z0-9])?$/;

/** `namespace/name` of the form's request, once both are valid names. */
function requestKey(formData: Record<string, unknown>): string {
  const { namespace, name } = formData;
  if (typeof namespace !== 'string' || typeof name !== 'string') return '';
  if (!DNS_LABEL.test(namespace) || !DNS_LABEL.test(name)) return '';
  return `${namespace}/${name}`;
}

function FileList(props: { label: string; items: string[] }) {
  return (
    <Box mt={1}>
      <Typography variant="subtitle2">{props.label}</Typography>
      <ul aria-label={props.label}>
        {props.items.map(item => (
          <li key={item}>
            <Typography variant="body2">{item}</Typography>
          </li>
        ))}
      </ul>
    </Box>
  );
}

function PreviewLists(props: { preview: ReleasePreview }) {
  const { deletes, changes, leaves, savings } = props.preview;
  return (
    <>
      <FileList label="Deletes" items={deletes} />
      {changes.length > 0 && (
        <FileList label="Changes and keeps" items={changes} />
      )}
      {leaves.length > 0 ? (
        <FileList
          label="Stays (the product did not write it; delete it in the pull request if it should go)"
          items={leaves.map(o => `${o.kind} ${o.name} (${o.path})`)}
        />
      ) : (
        <Typography variant="body2">
          Nothing the product did not write sits beside the workload.
        </Typography>
      )}
      {savings && <Typography variant="body2">It {savings}</Typography>}
    </>
  );
}

/**
 * Scaffolder field of the Release template: before the release is sent,
 * what it will delete and what stays, from the scaffolder's dry run of the
 * `gpu:gitops:release` action for the form's `namespace` and `name` (the
 * same change the template then opens; nothing is pushed). Its value is
 * not used: it only shows.
 *
 * @public
 */
export function GpuReleasePreview(
  props: FieldExtensionComponentProps<string, GpuReleasePreviewUiOptions>,
) {
  const { uiSchema, formContext, schema } = props;
  const scaffolderApi = useApi(scaffolderApiRef);
  const options = (uiSchema?.['ui:options'] ??
    {}) as GpuReleasePreviewUiOptions;
  const key = requestKey(
    (formContext?.formData ?? {}) as Record<string, unknown>,
  );
  const [debouncedKey, setDebouncedKey] = useState(key);
  useDebounce(() => setDebouncedKey(key), options.debounceMs ?? 500, [key]);
  const preview = useAsync(async () => {
    if (!debouncedKey) return undefined;
    const [namespace, name] = debouncedKey.split('/');
    const response = await scaffolderApi.dryRun({
      template: releasePreviewTemplate({ namespace, name }),
      values: {},
      directoryContents: [],
    });
    return { key: debouncedKey, preview: readReleasePreview(response) };
  }, [scaffolderApi, debouncedKey]);
  // The answer on screen is for the request named now, never the previous one.
  const settled = key !== '' && debouncedKey === key && !preview.loading;

  let body;
  if (!key) {
    body = (
      <Typography variant="body2">
        Name the request (its name and namespace) to see what the release
        deletes and what stays.
      </Typography>
    );
  } else if (!settled) {
    body = (
      <Typography variant="body2">
        Asking the GitOps repository what releasing {key} deletes…
      </Typography>
    );
  } else if (preview.error) {
    body = (
      <Typography variant="body2" color="error" role="alert">
        The release of {key} cannot be previewed: {backendReason(preview.error)}
      </Typography>
    );
  } else if (preview.value?.key === key) {
    body = <PreviewLists preview={preview.value.preview} />;
  }
  return (
    <Box
      my={2}
      aria-label={schema?.title ?? 'What the release deletes and leaves'}
      role="region"
      data-testid="gpu-release-preview"
    >
      <Typography variant="h6">
        {schema?.title ?? 'What the release deletes and leaves'}
      </Typography>
      {body}
    </Box>
  );
}
