/**
 * MPS client limit per GPU. The NVIDIA device plugin (v0.20.0, `mps/device.go`)
 * allows 48 MPS clients at compute capability ≥ 7.5 (Turing and later) and 16
 * below (Volta), and rejects more with `maximum allowed replicas exceeded`.
 * Derived from the compute capability so the catalog never types it twice.
 */
export const MPS_MAX_REPLICAS_MODERN = 48;
export const MPS_MAX_REPLICAS_LEGACY = 16;

/** Parses `major.minor` (e.g. `8.0`, `10.0`) into numbers; throws on anything else. */
export function parseComputeCapability(computeCapability: string): {
  major: number;
  minor: number;
} {
  const match = /^(\d+)\.(\d+)$/.exec(computeCapability);
  if (!match) {
    throw new Error(
      `compute capability "${computeCapability}" is not of the form <major>.<minor>`,
    );
  }
  return { major: Number(match[1]), minor: Number(match[2]) };
}

export function mpsMaxReplicasFor(computeCapability: string): number {
  const { major, minor } = parseComputeCapability(computeCapability);
  const atLeast75 = major > 7 || (major === 7 && minor >= 5);
  return atLeast75 ? MPS_MAX_REPLICAS_MODERN : MPS_MAX_REPLICAS_LEGACY;
}
