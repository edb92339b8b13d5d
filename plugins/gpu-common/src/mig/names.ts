import type { GpuModel } from '../catalog/types';
import { DEFAULT_MIG_CONFIG } from '../manifests/defaultConfigNames';
import { parseMigProfileName } from './profileName';
import { compareStrings } from '../text/compareStrings';

/**
 * mig-parted / device-plugin spelling: `+` becomes `.`, `-` is kept (config
 * names such as `all-1g.10gb.me` and `all-1g.24gb-me` in NVIDIA mig-parted
 * v0.15.0 `deployments/systemd/config-default.yaml`; resource names in
 * `AddDefaultResourcesToConfig`, k8s-device-plugin v0.20.0 `internal/rm/rm.go`).
 */
function dotted(profile: string): string {
  return profile.replace(/\+/g, '.');
}

/** Kubernetes label values (`nvidia.com/mig.config`) hold at most 63 characters. */
const MAX_LABEL_VALUE = 63;

/** FNV-1a 32-bit: a short, deterministic, dependency-free suffix for over-long names. */
function fnv1a(text: string): string {
  let hash = 0x811c9dc5;
  for (let i = 0; i < text.length; i++) {
    hash ^= text.charCodeAt(i);
    hash = Math.imul(hash, 0x01000193) >>> 0;
  }
  return hash.toString(16).padStart(8, '0');
}

/** Larger instances first (compute, then memory), then by name: a stable reading order. */
function compareProfiles(a: string, b: string): number {
  const pa = parseMigProfileName(a);
  const pb = parseMigProfileName(b);
  const compute = (pb?.gpuInstanceSlices ?? 0) - (pa?.gpuInstanceSlices ?? 0);
  const memory = (pb?.memoryGB ?? 0) - (pa?.memoryGB ?? 0);
  return compute || memory || compareStrings(a, b);
}

/**
 * The mig-parted config name (and `nvidia.com/mig.config` label value) for a
 * per-GPU layout, following NVIDIA's default-config convention:
 * - no instances: `all-disabled`;
 * - one profile: `all-<profile>` with `+` → `.` (`all-1g.10gb.me`,
 *   `all-1g.24gb-me`). NVIDIA uses `all-` for "fill the GPU with this
 *   profile". Pass `model` to keep that meaning: a single-profile layout below
 *   the profile's max count is then named like a mixed one
 *   (`custom-3x1g.10gb`), so two different layouts never share a name. Without
 *   `model` a single-profile layout is always `all-<profile>`;
 * - several profiles: `custom-<count>x<profile>-...`, larger profiles first
 *   (e.g. `custom-1x3g.20gb-2x2g.10gb`). Deterministic: key order of the input
 *   does not matter. Names over 63 characters are cut and suffixed with a hash
 *   so they stay valid, unique label values.
 */
export function migConfigName(
  layout: Record<string, number>,
  model?: GpuModel,
): string {
  const entries = Object.entries(layout)
    .filter(([, count]) => count > 0)
    .sort(([a], [b]) => compareProfiles(a, b));
  if (entries.length === 0) return DEFAULT_MIG_CONFIG;
  if (entries.length === 1) {
    const [profile, count] = entries[0];
    const max = model?.mig?.profiles.find(p => p.name === profile)?.maxCount;
    if (!model || count === max) return `all-${dotted(profile)}`;
  }
  const name = `custom-${entries
    .map(([profile, count]) => `${count}x${dotted(profile)}`)
    .join('-')}`;
  if (name.length <= MAX_LABEL_VALUE) return name;
  const hash = fnv1a(name);
  // Cut at a readable boundary: no dangling separator before the hash.
  const head = name
    .slice(0, MAX_LABEL_VALUE - hash.length - 1)
    .replace(/[-.x0-9]+$/, '');
  return `${head}-${hash}`;
}

/**
 * The extended resource a pod requests for one MIG device (device plugin
 * v0.20.0, `AddDefaultResourcesToConfig` in `internal/rm/rm.go`):
 * `nvidia.com/gpu` under the `single` strategy,
 * `nvidia.com/mig-<profile with + → .>` under `mixed`.
 */
export function migResourceName(
  profile: string,
  strategy: 'single' | 'mixed',
): string {
  return strategy === 'single'
    ? 'nvidia.com/gpu'
    : `nvidia.com/mig-${dotted(profile)}`;
}
