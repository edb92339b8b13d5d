/**
 * The one title of what a request holds, in GPU equivalents and what they
 * are: the pull request's title, the action's `title` output and the card
 * read it. "2× NVIDIA Tesla T4" for two time-slices read as two whole GPUs;
 * "0.5 GPU — 2 time-slices of a T4" says what is held and what it is.
 */
import type { SharingMode } from '../request/types';

/**
 * What a request holds, as a plan or an allocation carries it.
 *
 * @public
 */
export interface GpuHolding {
  replicas: number;
  /** Units of the pool's resource one replica holds (GPUs, slices, MIG instances). */
  unitsPerReplica: number;
  /** Physical GPUs one replica holds (0.25 for a quarter of a GPU). */
  gpuSharePerReplica: number;
  sharingMode: SharingMode;
  migProfile?: string;
  /** The catalog's display name, e.g. `NVIDIA Tesla T4`. */
  modelName: string;
}

/** `NVIDIA Tesla T4` → `T4`, `NVIDIA A100 40GB` → `A100 40GB`. */
function shortModelName(displayName: string): string {
  return displayName.replace(/^NVIDIA\s+/, '').replace(/^Tesla\s+/, '');
}

/** "an" before a letter or digit whose English name starts with a vowel sound (an A100, an H100, an L4, an 8…). */
function withArticle(name: string): string {
  return /^[AEFHILMNORSX8]/.test(name) ? `an ${name}` : `a ${name}`;
}

function plural(count: number, one: string, many = `${one}s`): string {
  return `${count} ${count === 1 ? one : many}`;
}

/**
 * GPU equivalents: `0.5 GPU`, `1 GPU`, `2 GPUs`, `0.75 GPU` (two decimals at most).
 *
 * @public
 */
export function formatGpuEquivalents(gpus: number): string {
  const rounded = Math.round(gpus * 100) / 100;
  return `${rounded} ${rounded > 1 ? 'GPUs' : 'GPU'}`;
}

/**
 * What a request holds, e.g. "0.5 GPU — 2 time-slices of a T4",
 * "0.75 GPU — 3 MIG 1g.5gb of an A100 40GB", "2 GPUs — 2 whole L4s",
 * "2 GPUs — 8 MPS shares of T4s" (units on several GPUs name the model in
 * the plural).
 *
 * @public
 */
export function gpuHoldingTitle(holding: GpuHolding): string {
  const units = holding.replicas * holding.unitsPerReplica;
  const gpus = holding.replicas * holding.gpuSharePerReplica;
  const model = shortModelName(holding.modelName);
  const ofModel = gpus > 1 ? `of ${model}s` : `of ${withArticle(model)}`;
  let what: string;
  switch (holding.sharingMode) {
    case 'time-slicing':
      what = `${plural(units, 'time-slice')} ${ofModel}`;
      break;
    case 'mps':
      what = `${plural(units, 'MPS share')} ${ofModel}`;
      break;
    case 'mig':
      what = `${units} MIG ${holding.migProfile ?? 'instance'} ${ofModel}`;
      break;
    case 'dra':
      // Consumable shares: a replica holds part of a GPU.
      what =
        holding.gpuSharePerReplica < 1
          ? `${plural(units, 'DRA share')} ${ofModel}`
          : `${plural(units, `whole ${model}`)}, claimed through DRA`;
      break;
    default:
      what = plural(units, `whole ${model}`);
  }
  return `${formatGpuEquivalents(gpus)} — ${what}`;
}
