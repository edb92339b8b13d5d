/**
 * Whether a Karpenter NodePool's requirements keep it on GPU machines, and
 * which catalog model those machines carry, by the well-known labels of
 * every Karpenter cloud provider (`KarpenterMachines.gpuLabels`): a
 * repository's hand-written pool says "GPU" in its own provider's words
 * (`karpenter.k8s.aws/instance-gpu-count`, `karpenter.azure.com/sku-family:
 * N`, an instance type of a GPU family), and the pool readers, the import
 * included, recognise it here whatever the cluster profile says.
 */
import type { GpuCatalog } from '../catalog/types';
import type { NodeSelectorRequirement } from '../manifests/nodeSelectorRequirement';
import { KARPENTER_MACHINES } from './karpenterMachines';
import type { KarpenterGpuLabels } from './types';

const GPU_LABELS: readonly KarpenterGpuLabels[] = KARPENTER_MACHINES.map(
  machines => machines.gpuLabels,
);

function asRequirement(value: unknown): NodeSelectorRequirement | undefined {
  if (value === null || typeof value !== 'object') return undefined;
  const { key, operator, values } = value as Record<string, unknown>;
  if (typeof key !== 'string' || typeof operator !== 'string') return undefined;
  return {
    key,
    operator: operator as NodeSelectorRequirement['operator'],
    values: Array.isArray(values) ? values.map(String) : [],
  };
}

/** A value of a machine label that is a GPU machine for some provider, or a catalog machine. */
function isGpuMachineValue(
  key: string,
  value: string,
  catalog: GpuCatalog | undefined,
): boolean {
  return (
    GPU_LABELS.some(labels => labels.machineKeys[key]?.(value)) ||
    (catalog !== undefined &&
      GPU_LABELS.some(labels => labels.machineNameKeys.includes(key)) &&
      catalog.instanceTypes.some(t => t.name === value))
  );
}

/**
 * True when the requirement keeps a pool on GPU machines: a GPU label
 * required (`In` a value other than `0`, `Exists`, `Gt`), or a machine
 * label `In` values that are all GPU machines.
 */
export function requiresGpuMachine(
  requirement: NodeSelectorRequirement,
  catalog?: GpuCatalog,
): boolean {
  const { key, operator, values = [] } = requirement;
  if (GPU_LABELS.some(labels => labels.gpuKeys.includes(key))) {
    if (operator === 'Exists' || operator === 'Gt') return true;
    return operator === 'In' && values.some(v => v !== '0');
  }
  return (
    operator === 'In' &&
    values.length > 0 &&
    values.every(v => isGpuMachineValue(key, v, catalog))
  );
}

/**
 * True when any of a NodePool's requirements (as written: unknown shapes
 * are skipped) keeps it on GPU machines.
 *
 * @public
 */
export function requiresGpuMachines(
  requirements: unknown,
  catalog?: GpuCatalog,
): boolean {
  return (
    Array.isArray(requirements) &&
    requirements.some(r => {
      const requirement = asRequirement(r);
      return (
        requirement !== undefined && requiresGpuMachine(requirement, catalog)
      );
    })
  );
}

/**
 * True when the requirement keeps a pool off GPU machines: a GPU label
 * absent or `In` only `0`, or a machine label some provider names its
 * machines by, `In` values none of which is a GPU machine (Azure's `D`
 * family, AWS's `c`, `m`, `r` categories).
 */
function excludesGpuMachine(requirement: NodeSelectorRequirement): boolean {
  const { key, operator, values = [] } = requirement;
  if (GPU_LABELS.some(labels => labels.gpuKeys.includes(key))) {
    if (operator === 'DoesNotExist') return true;
    return (
      operator === 'In' && values.length > 0 && values.every(v => v === '0')
    );
  }
  const tells = GPU_LABELS.filter(labels => labels.machineKeys[key]);
  return (
    tells.length > 0 &&
    operator === 'In' &&
    values.length > 0 &&
    values.every(v => !tells.some(labels => labels.machineKeys[key](v)))
  );
}

/**
 * True when a NodePool's requirements (as written: unknown shapes are
 * skipped) keep it off GPU machines, so its nodes advertise no GPU: what
 * the readers need of a team's CPU pools, whose machines the GPU catalog
 * does not hold.
 *
 * @public
 */
export function excludesGpuMachines(requirements: unknown): boolean {
  return (
    Array.isArray(requirements) &&
    requirements.some(r => {
      const requirement = asRequirement(r);
      return requirement !== undefined && excludesGpuMachine(requirement);
    })
  );
}

function inValues(requirements: unknown, keys: readonly string[]): string[] {
  if (!Array.isArray(requirements)) return [];
  return requirements
    .map(asRequirement)
    .filter(
      (r): r is NodeSelectorRequirement =>
        r !== undefined && r.operator === 'In' && keys.includes(r.key),
    )
    .flatMap(r => r.values ?? []);
}

const single = (models: Iterable<string>) => {
  const set = new Set(models);
  return set.size === 1 ? [...set][0] : undefined;
};

/**
 * The one catalog model a pool's requirements allow: by its machine names
 * (instance types, Azure size names), else by the GPU name label, else
 * undefined.
 *
 * @public
 */
export function gpuModelOfRequirements(
  requirements: unknown,
  catalog: GpuCatalog,
): string | undefined {
  const names = inValues(
    requirements,
    GPU_LABELS.flatMap(labels => labels.machineNameKeys),
  );
  const byMachine = single(
    names.flatMap(name =>
      catalog.instanceTypes.filter(t => t.name === name).map(t => t.gpuModel),
    ),
  );
  if (byMachine) return byMachine;
  return single(
    GPU_LABELS.flatMap(labels =>
      inValues(requirements, [labels.gpuNameKey]).flatMap(name =>
        labels.modelsNamed(name, catalog),
      ),
    ),
  );
}
