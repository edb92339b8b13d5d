import { LinkButton } from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import type { Entity } from '@backstage/catalog-model';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import {
  requestGpusFormData,
  requestGpusUrl,
  workloadOf,
} from './requestGpusFormData';

/**
 * "Request GPUs" for a component: the GPU template with the form filled in
 * from the component (name, namespace, owner) and, when the GitOps
 * repository runs its workload already, that existing workload.
 */
export function RequestGpusButton(props: {
  entity: Entity;
  templatePath: string;
}) {
  const gpuApi = useApi(gpuApiRef);
  const workload = workloadOf(props.entity);
  const { value } = useAsync(
    () =>
      gpuApi.getWorkloads(workload).then(
        r => r.workloads,
        // Without the repository's answer the form still gets the component.
        () => [],
      ),
    [gpuApi, workload.name, workload.namespace],
  );
  return (
    <LinkButton
      variant="contained"
      color="primary"
      disabled={value === undefined}
      to={requestGpusUrl(
        props.templatePath,
        requestGpusFormData(props.entity, value ?? []),
      )}
    >
      Request GPUs
    </LinkButton>
  );
}
