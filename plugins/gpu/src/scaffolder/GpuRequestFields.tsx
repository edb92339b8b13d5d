import { fieldLabel } from '@gpu-gitops/plugin-gpu-common';
import { ClusterSelect } from './ClusterSelect';
import { ModelSelect } from './ModelSelect';
import { NumberBox } from './NumberBox';
import type { GpuRequestPickerValue } from './previewRequest';
import { SharingSelect } from './SharingSelect';
import type { useClusterChoices } from './useClusterChoices';

type Update = (patch: Partial<GpuRequestPickerValue>) => void;

/** Where the request goes and what it asks for: cluster, model, sharing mode. */
export function ChoiceFields(props: {
  value: GpuRequestPickerValue;
  choices: ReturnType<typeof useClusterChoices>;
  update: Update;
}) {
  const { value, choices, update } = props;
  return (
    <>
      <ClusterSelect
        id="gpu-cluster"
        label={fieldLabel('spec.cluster')}
        value={choices.clusterName}
        clusters={choices.clusters}
        onChange={cluster => update({ cluster })}
      />
      <ModelSelect
        label={fieldLabel('spec.gpu.model')}
        value={value.model}
        models={choices.models}
        reason={choices.modelReason}
        disabled={choices.choicesPending}
        onChange={model => update({ model })}
      />
      <SharingSelect
        label={fieldLabel('spec.gpu.sharing')}
        value={value.sharing}
        reason={choices.modeReason}
        disabled={choices.choicesPending}
        onChange={sharing =>
          update({
            sharing,
            // Several GPUs per replica exist only for whole GPUs.
            gpusPerReplica:
              sharing === 'exclusive' ? value.gpusPerReplica : undefined,
          })
        }
      />
    </>
  );
}

/** How much it asks for: replicas, VRAM per replica, GPUs per replica (exclusive only). */
export function SizeFields(props: {
  value: GpuRequestPickerValue;
  update: Update;
  /** The template schema's error for a box. */
  boxError: (key: keyof GpuRequestPickerValue) => string | undefined;
}) {
  const { value, update, boxError } = props;
  return (
    <>
      <NumberBox
        id="gpu-replicas"
        label={fieldLabel('spec.gpu.replicas')}
        initial={value.replicas}
        error={boxError('replicas')}
        min={1}
        step={1}
        onChange={replicas => update({ replicas })}
      />
      <NumberBox
        id="gpu-vram"
        label={`${fieldLabel('spec.gpu.vramGiB')} (GiB)`}
        initial={value.vramGiB}
        error={boxError('vramGiB')}
        min={0}
        step="any"
        onChange={vramGiB => update({ vramGiB })}
      />
      {value.sharing === 'exclusive' && (
        <NumberBox
          id="gpu-gpus-per-replica"
          label={fieldLabel('spec.gpu.gpusPerReplica')}
          initial={value.gpusPerReplica ?? 1}
          error={boxError('gpusPerReplica')}
          min={1}
          step={1}
          onChange={gpusPerReplica => update({ gpusPerReplica })}
        />
      )}
    </>
  );
}
