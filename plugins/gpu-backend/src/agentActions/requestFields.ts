/**
 * The input of the agent actions that take a GPU request: the flat fields of
 * the scaffolder actions (one definition, gpu-node's), as the
 * gpu-workload form offers them, for the actions registry's zod object.
 */
import type { z as zod } from 'zod/v3';
import { gpuRequestInputProperties } from '@gpu-gitops/plugin-gpu-node';

type Z = typeof zod;

/**
 * The gpu-workload template does not pass `slicesPerGpu` on (the form
 * computes it from VRAM), so a plan would not be what the pull request does.
 */
type FormFields = Omit<typeof gpuRequestInputProperties, 'slicesPerGpu'>;

/** `{ name: z.string(), … }` for `z.object`, each field described as the scaffolder describes it. */
export function gpuRequestFields(z: Z): {
  [K in keyof FormFields]: ReturnType<FormFields[K]>;
} {
  const fields = Object.entries(gpuRequestInputProperties)
    .filter(([key]) => key !== 'slicesPerGpu')
    .map(([key, field]) => [key, field(z)]);
  return Object.fromEntries(fields) as {
    [K in keyof FormFields]: ReturnType<FormFields[K]>;
  };
}
