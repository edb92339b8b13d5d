import {
  EmptyState,
  Link,
  Progress,
  ResponseErrorPanel,
} from '@backstage/core-components';
import { useApi } from '@backstage/core-plugin-api';
import { stringifyEntityRef } from '@backstage/catalog-model';
import { useEntity } from '@backstage/plugin-catalog-react';
import type {
  GpuAllocation,
  PoolsResponse,
} from '@gpu-gitops/plugin-gpu-common';
import { Grid, Typography } from '@material-ui/core';
import useAsync from 'react-use/esm/useAsync';
import { gpuApiRef } from '../../api/GpuApi';
import { GpuAllocationCard } from '../GpuAllocationCard';
import { GPU_OVERVIEW_PATH } from '../paths';
import { componentPlaces, type ComponentPlace } from './componentPlaces';
import { PoolCard } from './PoolCard';
import { TeamNodesCard } from './TeamNodesCard';

/**
 * The GPU tab of an entity: its allocation card, then the places its
 * workloads run on (`componentPlaces`: the pools of the card's rows, the
 * team's own GPU nodes among them; every pool of every cluster is the GPU
 * page's), with what their nodes hold, what their GPUs did when the cluster
 * has live data, and the MIG layout of MIG pools. A component without GPUs
 * is told so, with the way to the GPU page.
 *
 * @public
 */
export function GpuPoolsContent() {
  const { entity } = useEntity();
  const entityRef = stringifyEntityRef(entity);
  const gpuApi = useApi(gpuApiRef);
  const pools = useAsync(() => gpuApi.getPools(), [gpuApi]);
  const allocation = useAsync(
    () => gpuApi.getAllocation(entityRef),
    [gpuApi, entityRef],
  );
  const error = pools.error ?? allocation.error;
  const places =
    pools.value && allocation.value
      ? componentPlaces(allocation.value.allocations, pools.value.pools)
      : undefined;

  return (
    <Grid container spacing={3}>
      <Grid item xs={12}>
        <GpuAllocationCard />
      </Grid>
      <Grid item xs={12}>
        <Typography variant="h5">GPU pools</Typography>
      </Grid>
      {(pools.loading || allocation.loading) && (
        <Grid item xs={12}>
          <Progress />
        </Grid>
      )}
      {error && (
        <Grid item xs={12}>
          <ResponseErrorPanel error={error} title="Could not load GPU pools" />
        </Grid>
      )}
      {places && places.length === 0 && (
        <Grid item xs={12}>
          <EmptyState
            missing="data"
            title="No GPU pool serves this component"
            description={noPlaceText(
              entity.metadata.name,
              allocation.value!.allocations,
              pools.value!.pools.length,
            )}
            action={
              <Link to={GPU_OVERVIEW_PATH}>Every pool of every cluster</Link>
            }
          />
        </Grid>
      )}
      {places?.map(place => (
        <Grid item xs={12} md={6} key={place.key}>
          <PlaceCard
            place={place}
            entityRef={entityRef}
            live={pools.value!.live}
          />
        </Grid>
      ))}
    </Grid>
  );
}

/**
 * Why the tab lists no place: the component holds no GPUs, or its GPU
 * workloads land nowhere (the card lists them with pool "none").
 */
function noPlaceText(
  name: string,
  allocations: readonly GpuAllocation[],
  poolCount: number,
): string {
  if (allocations.length === 0) {
    return `${name} holds no GPUs: none of the GitOps repository's ${poolCount} GPU pools has a request of it.`;
  }
  const ids = allocations.map(a => a.id).join(', ');
  return `${name}'s GPU workloads (${ids}) land on none of the GitOps repository's ${poolCount} GPU pools nor on GPU nodes of the team's: their pods would stay pending.`;
}

/** One place the component's workloads run on, as its kind is shown. */
function PlaceCard(props: {
  place: ComponentPlace;
  entityRef: string;
  live: PoolsResponse['live'];
}) {
  const { place, entityRef, live } = props;
  if (place.kind === 'team-nodes') return <TeamNodesCard place={place} />;
  if (place.kind === 'unlisted') {
    return (
      <Typography variant="body2" data-testid={`unlisted-pool-${place.pool}`}>
        {`${place.allocations.map(a => a.id).join(', ')} runs on pool ${place.pool} of ${place.cluster}, which the GPU pools' answer does not list (the repository moved between the two reads): reload the page.`}
      </Typography>
    );
  }
  return (
    <PoolCard
      pool={place.pool}
      entityRef={entityRef}
      allocations={place.allocations}
      live={live?.find(
        s => s.cluster === place.pool.cluster && s.source === 'prometheus',
      )}
    />
  );
}
