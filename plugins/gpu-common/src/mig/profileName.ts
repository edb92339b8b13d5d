/**
 * MIG profile-name grammar (go-nvlib v0.12.0
 * `pkg/nvlib/device/mig_profile.go`, vendored by NVIDIA mig-parted v0.15.0):
 * `[<C>c.]<G>g.<GB>gb` optionally followed by `+attr[,attr]` or `-attr`, with
 * attrs `me`, `me.all`, `gfx`. Examples: `1g.10gb`, `1g.10gb+me`,
 * `1g.24gb-me`, `2g.48gb+gfx`, `1c.3g.20gb`.
 */
export interface ParsedMigProfileName {
  /** Compute-instance slices when the `<C>c.` prefix is present. */
  computeInstanceSlices?: number;
  /** The `<G>` of `<G>g`. */
  gpuInstanceSlices: number;
  /** The `<GB>` of `<GB>gb`, the marketing memory size. */
  memoryGB: number;
  /** `+` attributes (`me`, `me.all`, `gfx`); empty when none. */
  addedAttributes: string[];
  /** `-` attributes (`me`); empty when none. */
  removedAttributes: string[];
}

const PROFILE_NAME =
  /^(?:(\d+)c\.)?(\d+)g\.(\d+)gb(?:\+((?:me\.all|me|gfx)(?:,(?:me\.all|me|gfx))*)|-(me))?$/;

/** Parses a profile name, or returns undefined when it breaks the grammar. */
export function parseMigProfileName(
  name: string,
): ParsedMigProfileName | undefined {
  const match = PROFILE_NAME.exec(name);
  if (!match) return undefined;
  return {
    ...(match[1] ? { computeInstanceSlices: Number(match[1]) } : {}),
    gpuInstanceSlices: Number(match[2]),
    memoryGB: Number(match[3]),
    addedAttributes: match[4] ? match[4].split(',') : [],
    removedAttributes: match[5] ? [match[5]] : [],
  };
}

/** True for a plain `<G>g.<GB>gb` profile: no attributes, no compute-instance prefix. */
export function isPlainMigProfile(name: string): boolean {
  const parsed = parseMigProfileName(name);
  return (
    parsed !== undefined &&
    parsed.computeInstanceSlices === undefined &&
    parsed.addedAttributes.length === 0 &&
    parsed.removedAttributes.length === 0
  );
}

/**
 * True when the profile claims the GPU's media engines (`+me`, `+me.all`).
 * NVIDIA allows at most one such instance per GPU ("A single 1g profile can
 * include media extensions", NVIDIA MIG User Guide "Supported MIG Profiles",
 * https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html).
 */
export function claimsMediaEngines(name: string): boolean {
  const parsed = parseMigProfileName(name);
  return (
    parsed !== undefined &&
    parsed.addedAttributes.some(a => a === 'me' || a === 'me.all')
  );
}
