import {
  EmptyState,
  InfoCard,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import { GpuOpenPullRequests } from '../GpuOpenPullRequests';
import { RequestGpusButton } from '../RequestGpus';
import { AllocationTable } from './AllocationTable';
import { GPU_TEMPLATE_PATH } from './templatePaths';

export { GPU_TEMPLATE_PATH } from './templatePaths';

/**
 *  The GPU requests of the current catalog entity, as the GitOps repository holds them.
 *
 * @public
 */
export function GpuAllocationCard() {
  const { entity } = useEntity();
  const entityRef = stringifyEntityRef(entity);
  const gpuApi = useApi(gpuApiRef);
  const { value, loading, error } = useAsync(
    () => gpuApi.getAllocation(entityRef),
    [gpuApi, entityRef],
  );

  if (loading) {
    return (
      <InfoCard title="GPU allocation">
        <Progress />
      </InfoCard>
    );
  }
  if (error) {
    return (
      <InfoCard title="GPU allocation">
        <ResponseErrorPanel
          error={error}
          title="Could not load GPU allocation"
        />
      </InfoCard>
    );
  }
  if (!value || value.allocations.length === 0) {
    return (
      <InfoCard title="GPU allocation">
        <EmptyState
          missing="data"
          title="No GPUs requested"
          description="This component has no GPU request in the GitOps repository yet."
          action={
            <RequestGpusButton
              entity={entity}
              templatePath={GPU_TEMPLATE_PATH}
            />
          }
        />
        <GpuOpenPullRequests entityRef={entityRef} />
      </InfoCard>
    );
  }
  return <AllocationTable response={value} />;
}
