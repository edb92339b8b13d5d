import { useApi } from '@backstage/core-plugin-api';
import type { FieldExtensionComponentProps } from '@backstage/plugin-scaffolder-react';
import { FormControl } from '@material-ui/core';
import { useEffect } from 'react';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../api/GpuApi';
import { ClusterSelect } from './ClusterSelect';

/**
 * Scaffolder field: one of the configured clusters, shown with its provider
 * and region, for templates that act on a whole cluster (the GPU cluster
 * bootstrap). The value is the cluster's profile name; the default cluster
 * is chosen until another is.
 *
 * @public
 */
export function GpuClusterPicker(props: FieldExtensionComponentProps<string>) {
  const { formData, onChange, schema, rawErrors, required } = props;
  const gpuApi = useApi(gpuApiRef);
  const clusters = useAsync(() => gpuApi.getClusters(), [gpuApi]);

  // Name the default cluster once it is known, so the step says where it goes.
  useEffect(() => {
    if (!formData && clusters.value) onChange(clusters.value.defaultCluster);
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clusters.value]);

  return (
    <FormControl
      fullWidth
      margin="normal"
      required={required}
      error={(rawErrors?.length ?? 0) > 0}
    >
      <ClusterSelect
        id="gpu-cluster-picker"
        label={schema?.title ?? 'Cluster'}
        value={formData || clusters.value?.defaultCluster}
        clusters={clusters}
        onChange={onChange}
        helperText={schema?.description}
      />
    </FormControl>
  );
}
