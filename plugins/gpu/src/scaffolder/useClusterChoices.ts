import {
  builtinCatalog,
  gpuModelChoices,
  type ClusterCapabilities,
  type SharingMode,
} from '@gpu-gitops/plugin-gpu-common';
import { useEffect, useMemo } from 'react';
import useAsync from 'react-use/esm/useAsync';
import type { GpuApi } from '../api/GpuApi';
import type { GpuRequestPickerValue } from './previewRequest';

/**
 * The clusters the owner may use (`GET /clusters`) and, on the chosen one,
 * the models and sharing modes it offers, each refused one with its reason.
 * The default cluster is named in the value once known, so the request says
 * where it goes.
 */
export function useClusterChoices(
  gpuApi: GpuApi,
  owner: string | undefined,
  value: GpuRequestPickerValue,
  allowedModels: string[] | undefined,
  update: (patch: Partial<GpuRequestPickerValue>) => void,
) {
  const clusters = useAsync(
    () => gpuApi.getClusters(owner ? { owner } : undefined),
    [gpuApi, owner],
  );
  const clusterName = value.cluster || clusters.value?.defaultCluster;
  const cluster: ClusterCapabilities | undefined =
    clusters.value?.clusters.find(c => c.name === clusterName);

  useEffect(() => {
    if (!value.cluster && clusters.value) {
      update({ cluster: clusters.value.defaultCluster });
    }
    // eslint-disable-next-line react-hooks/exhaustive-deps
  }, [clusters.value]);

  const models = useMemo(() => {
    const all = cluster?.models ?? gpuModelChoices(builtinCatalog);
    return allowedModels ? all.filter(m => allowedModels.includes(m.id)) : all;
  }, [cluster, allowedModels]);
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

  return {
    clusters,
    clusterName,
    models,
    modelReason,
    modeReason,
    // Which models and modes a cluster can run comes with its capabilities:
    // until they are read, a choice could be offered that the cluster then
    // refuses, and the menu would change under the user's pointer. If they
    // cannot be read, the built-in catalog is offered and the preview names
    // what the cluster refuses.
    choicesPending: clusters.loading,
  };
}
