import {
  EmptyState,
  Link,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import type { PoolSummary } from '@gpu-gitops/plugin-gpu-common';
import { Grid, Typography } from '@material-ui/core';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import { GpuAllocationCard } from '../GpuAllocationCard';
import { GPU_OVERVIEW_PATH } from '../paths';
import { PoolCard } from './PoolCard';

/**
 * The GPU tab of an entity: its allocation card, then the GPU pools its
 * requests hold units of (every pool of every cluster is the GPU page's),
 * with what their nodes hold, what their GPUs did when the cluster has live
 * data, and the MIG layout of MIG pools. A component without GPUs is told
 * so, with the way to the GPU page.
 *
 * @public
 */
export function GpuPoolsContent() {
  const { entity } = useEntity();
  const entityRef = stringifyEntityRef(entity);
  const gpuApi = useApi(gpuApiRef);
  const { value, loading, error } = useAsync(() => gpuApi.getPools(), [gpuApi]);

  return (
    <Grid container spacing={3}>
      <Grid item xs={12}>
        <GpuAllocationCard />
      </Grid>
      <Grid item xs={12}>
        <Typography variant="h5">GPU pools</Typography>
      </Grid>
      {loading && (
        <Grid item xs={12}>
          <Progress />
        </Grid>
      )}
      {error && (
        <Grid item xs={12}>
          <ResponseErrorPanel error={error} title="Could not load GPU pools" />
        </Grid>
      )}
      {value && poolsOf(value.pools, entityRef).length === 0 && (
        <Grid item xs={12}>
          <EmptyState
            missing="data"
            title="No GPU pool serves this component"
            description={`${entity.metadata.name} holds no GPUs: none of the GitOps repository's ${value.pools.length} GPU pools has a request of it.`}
            action={
              <Link to={GPU_OVERVIEW_PATH}>Every pool of every cluster</Link>
            }
          />
        </Grid>
      )}
      {value &&
        poolsOf(value.pools, entityRef).map(pool => (
          <Grid item xs={12} md={6} key={`${pool.cluster}/${pool.name}`}>
            <PoolCard
              pool={pool}
              entityRef={entityRef}
              live={value.live?.find(
                s => s.cluster === pool.cluster && s.source === 'prometheus',
              )}
            />
          </Grid>
        ))}
    </Grid>
  );
}

/** The pools a request of the entity holds units of, in the backend's order. */
function poolsOf(pools: PoolSummary[], entityRef: string) {
  return pools.filter(p => p.consumers.some(c => c.entityRef === entityRef));
}
