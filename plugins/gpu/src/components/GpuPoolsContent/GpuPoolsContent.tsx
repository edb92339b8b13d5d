import {
  EmptyState,
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
import { PoolCard } from './PoolCard';

/**
 * The GPU tab of an entity: its allocation card, then every GPU pool of the
 * GitOps repository (the ones this component uses first), with capacity vs
 * allocated, what their GPUs did when the cluster has live data, and the MIG
 * layout of MIG pools.
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
      {value && value.pools.length === 0 && (
        <Grid item xs={12}>
          <EmptyState
            missing="data"
            title="No GPU pools"
            description="The GitOps repository has no GPU pool yet."
          />
        </Grid>
      )}
      {value &&
        sortUsedFirst(value.pools, entityRef).map(pool => (
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

function sortUsedFirst(pools: PoolSummary[], entityRef: string) {
  const uses = (p: PoolSummary) =>
    p.consumers.some(c => c.entityRef === entityRef) ? 0 : 1;
  // Array.prototype.sort is stable: otherwise the backend's order stays.
  return [...pools].sort((a, b) => uses(a) - uses(b));
}
