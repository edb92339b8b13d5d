import type { MigGeometry, MigProfile } from '../types';
import { GPU_MEMORY_MIB } from './gpuMemory';

/**
 * MIG geometry per GPU model: which GPU-instance profiles exist, how many
 * compute and memory slices each uses, where an instance may start and how many
 * fit an empty GPU.
 *
 * Placements come from `nvidia-smi mig -lgipp` (NVIDIA MIG User Guide,
 * "Getting Started with MIG" › "List GPU Instance Profiles",
 * https://docs.nvidia.com/datacenter/tesla/mig-user-guide/getting-started-with-mig.html,
 * and published lgipp listings): verified on A100-40GB, H100-80GB, H100 NVL
 * (8 memory slices, 7 compute slices) and A30 (4 and 4). For A100-80GB (same
 * silicon as A100-40GB), H200 and B200 NVIDIA documents the same seven profile
 * classes with the same max counts; the identical placement table is an
 * ASSUMPTION, the one mig-parted's default config also makes (its
 * `all-balanced` gives them the A100's mix).
 *
 * Profile names and max counts: NVIDIA MIG User Guide "Supported MIG Profiles"
 * (https://docs.nvidia.com/datacenter/tesla/mig-user-guide/supported-mig-profiles.html).
 * PCI device ids: the `device-filter` groups of mig-parted's default config
 * (NVIDIA mig-parted v0.15.0 `deployments/systemd/config-default.yaml`,
 * `0x<device><vendor>`).
 */

/** One row of `nvidia-smi mig -lgipp` plus NVIDIA's max instance count. */
interface SliceClass {
  computeSlices: number;
  memorySlices: number;
  startSlots: number[];
  maxCount: number;
}

/** 8 memory slices, 7 compute slices: A100, H100, H200, B200. */
export const EIGHT_SLICE_CLASSES = {
  /** Profile ID 19: `{0..6}:1`. Slice 7 is never a 1-slice start. */
  oneG: {
    computeSlices: 1,
    memorySlices: 1,
    startSlots: [0, 1, 2, 3, 4, 5, 6],
    maxCount: 7,
  },
  /** Profile ID 20 (`+me`, media engines): same placements, at most one per GPU. */
  oneGMe: {
    computeSlices: 1,
    memorySlices: 1,
    startSlots: [0, 1, 2, 3, 4, 5, 6],
    maxCount: 1,
  },
  /** Profile ID 15: one compute slice with two memory slices, `{0,2,4,6}:2`. */
  oneGTwoMem: {
    computeSlices: 1,
    memorySlices: 2,
    startSlots: [0, 2, 4, 6],
    maxCount: 4,
  },
  /** Profile ID 14: `{0,2,4}:2`. */
  twoG: {
    computeSlices: 2,
    memorySlices: 2,
    startSlots: [0, 2, 4],
    maxCount: 3,
  },
  /** Profile ID 9: three compute slices but four memory slices, `{0,4}:4`. */
  threeG: {
    computeSlices: 3,
    memorySlices: 4,
    startSlots: [0, 4],
    maxCount: 2,
  },
  /** Profile ID 5: `{0}:4`. */
  fourG: { computeSlices: 4, memorySlices: 4, startSlots: [0], maxCount: 1 },
  /** Profile ID 0: the whole GPU, `{0}:8`. */
  sevenG: { computeSlices: 7, memorySlices: 8, startSlots: [0], maxCount: 1 },
} satisfies Record<string, SliceClass>;

/** 4 memory slices, 4 compute slices: A30 (verified lgipp). */
export const FOUR_SLICE_CLASSES = {
  oneG: {
    computeSlices: 1,
    memorySlices: 1,
    startSlots: [0, 1, 2, 3],
    maxCount: 4,
  },
  oneGMe: {
    computeSlices: 1,
    memorySlices: 1,
    startSlots: [0, 1, 2, 3],
    maxCount: 1,
  },
  twoG: { computeSlices: 2, memorySlices: 2, startSlots: [0, 2], maxCount: 2 },
  twoGMe: {
    computeSlices: 2,
    memorySlices: 2,
    startSlots: [0, 2],
    maxCount: 1,
  },
  fourG: { computeSlices: 4, memorySlices: 4, startSlots: [0], maxCount: 1 },
} satisfies Record<string, SliceClass>;

/**
 * Share of a memory slice we assume is usable when no measured figure is known.
 * A MIG instance offers less than its name: the measured figures we have give
 * 11008 MiB for H100 NVL `1g.12gb`, i.e. 0.92 of (GPU memory / 8 slices), the
 * worst ratio we know of; 0.9 stays below it so the planner never promises a
 * developer more memory than the slice really has.
 */
export const APPROX_USABLE_SLICE_SHARE = 0.9;

/** Conservative memory of an instance spanning `memorySlices` of `totalMemorySlices`. */
export function approxMigMemoryMiB(
  gpuMemoryMiB: number,
  totalMemorySlices: number,
  memorySlices: number,
): number {
  const perSlice = Math.floor(
    (gpuMemoryMiB / totalMemorySlices) * APPROX_USABLE_SLICE_SHARE,
  );
  return perSlice * memorySlices;
}

/** A MiB figure printed by `nvidia-smi mig -lgip` in GiB with 2 decimals, rounded down. */
function gib(value: number): number {
  return Math.floor(value * 1024);
}

type ProfileRow = [name: string, slices: SliceClass, measuredMiB?: number];

function geometry(
  gpuMemoryMiB: number,
  total: { memorySlices: number; computeSlices: number },
  pciDeviceIds: string[],
  rows: ProfileRow[],
): MigGeometry {
  const profiles: MigProfile[] = rows.map(([name, slices, measuredMiB]) => ({
    name,
    memoryMiB:
      measuredMiB ??
      approxMigMemoryMiB(gpuMemoryMiB, total.memorySlices, slices.memorySlices),
    computeSlices: slices.computeSlices,
    memorySlices: slices.memorySlices,
    startSlots: [...slices.startSlots],
    maxCount: slices.maxCount,
  }));
  return { ...total, pciDeviceIds, profiles };
}

const EIGHT = { memorySlices: 8, computeSlices: 7 };
const FOUR = { memorySlices: 4, computeSlices: 4 };
const C8 = EIGHT_SLICE_CLASSES;
const C4 = FOUR_SLICE_CLASSES;

/**
 * A100 40GB (SXM4 / PCIe; A800-40GB shares the group). `1g.5gb+me` needs
 * driver R470+, `1g.10gb` R525+. No measured sizes in our references:
 * approximated (see `approxMigMemoryMiB`).
 */
export const A100_40GB_MIG = geometry(
  GPU_MEMORY_MIB['a100-40gb'],
  EIGHT,
  ['0x20B010DE', '0x20B110DE', '0x20F110DE', '0x20F610DE'],
  [
    ['1g.5gb', C8.oneG],
    ['1g.5gb+me', C8.oneGMe],
    ['1g.10gb', C8.oneGTwoMem],
    ['2g.10gb', C8.twoG],
    ['3g.20gb', C8.threeG],
    ['4g.20gb', C8.fourG],
    ['7g.40gb', C8.sevenG],
  ],
);

/**
 * mig-parted uses one `device-filter` group for A100-80GB, A800-80GB,
 * H100-80GB and H800-80GB (identical profile names); it is listed on both
 * models because a device filter must match every GPU of the group.
 */
const EIGHTY_GB_GROUP = [
  '0x233010DE',
  '0x233110DE',
  '0x232210DE',
  '0x20B210DE',
  '0x20B510DE',
  '0x20F310DE',
  '0x20F510DE',
  '0x232410DE',
];

const EIGHTY_GB_ROWS: ProfileRow[] = [
  ['1g.10gb', C8.oneG],
  ['1g.10gb+me', C8.oneGMe],
  ['1g.20gb', C8.oneGTwoMem],
  ['2g.20gb', C8.twoG],
  ['3g.40gb', C8.threeG],
  ['4g.40gb', C8.fourG],
  ['7g.80gb', C8.sevenG],
];

/** A100 80GB: sizes approximated. */
export const A100_80GB_MIG = geometry(
  GPU_MEMORY_MIB['a100-80gb'],
  EIGHT,
  EIGHTY_GB_GROUP,
  EIGHTY_GB_ROWS,
);

/** H100 80GB (PCIe / SXM5): sizes approximated. */
export const H100_80GB_MIG = geometry(
  GPU_MEMORY_MIB['h100-80gb'],
  EIGHT,
  EIGHTY_GB_GROUP,
  EIGHTY_GB_ROWS,
);

/**
 * H100 NVL / H100 SXM5 94GB. Measured (`nvidia-smi mig -lgip` in NVIDIA
 * mig-parted pull request #101, https://github.com/NVIDIA/mig-parted/pull/101):
 * `1g.12gb` = 10.75 GiB
 * (GFD `nvidia.com/gpu.memory=11008`) and `3g.47gb` = 46.38 GiB. Profiles on
 * the same memory slices get the same figure (`+me` like `1g`, `4g` like `3g`,
 * as every published lgip listing shows). The 2-slice and 8-slice profiles are
 * LOWER BOUNDS built from those measurements: an instance over k slices holds at
 * least what the smaller instances tiling those slices hold (2 x 1g, 2 x 3g),
 * because each instance loses a fixed reserve.
 */
const H100_NVL_1G = 11008;
const H100_NVL_3G = gib(46.38);
export const H100_NVL_MIG = geometry(
  GPU_MEMORY_MIB['h100-nvl'],
  EIGHT,
  ['0x232110DE', '0x233A10DE'],
  [
    ['1g.12gb', C8.oneG, H100_NVL_1G],
    ['1g.12gb+me', C8.oneGMe, H100_NVL_1G],
    ['1g.24gb', C8.oneGTwoMem, 2 * H100_NVL_1G],
    ['2g.24gb', C8.twoG, 2 * H100_NVL_1G],
    ['3g.47gb', C8.threeG, H100_NVL_3G],
    ['4g.47gb', C8.fourG, H100_NVL_3G],
    ['7g.94gb', C8.sevenG, 2 * H100_NVL_3G],
  ],
);

/** H200 141GB / H200 NVL: placements assumed (UNVERIFIED), sizes approximated. */
export const H200_MIG = geometry(
  GPU_MEMORY_MIB.h200,
  EIGHT,
  ['0x233510DE', '0x233B10DE'],
  [
    ['1g.18gb', C8.oneG],
    ['1g.18gb+me', C8.oneGMe],
    ['1g.35gb', C8.oneGTwoMem],
    ['2g.35gb', C8.twoG],
    ['3g.71gb', C8.threeG],
    ['4g.71gb', C8.fourG],
    ['7g.141gb', C8.sevenG],
  ],
);

/** B200 180GB: placements assumed (UNVERIFIED), sizes approximated. */
export const B200_MIG = geometry(
  GPU_MEMORY_MIB.b200,
  EIGHT,
  ['0x290110DE'],
  [
    ['1g.23gb', C8.oneG],
    ['1g.23gb+me', C8.oneGMe],
    ['1g.45gb', C8.oneGTwoMem],
    ['2g.45gb', C8.twoG],
    ['3g.90gb', C8.threeG],
    ['4g.90gb', C8.fourG],
    ['7g.180gb', C8.sevenG],
  ],
);

/** A30 24GB: 4-slice GPU (verified lgipp); sizes approximated. `2g.12gb+me` needs R525+. */
export const A30_MIG = geometry(
  GPU_MEMORY_MIB.a30,
  FOUR,
  ['0x20B710DE'],
  [
    ['1g.6gb', C4.oneG],
    ['1g.6gb+me', C4.oneGMe],
    ['2g.12gb', C4.twoG],
    ['2g.12gb+me', C4.twoGMe],
    ['4g.24gb', C4.fourG],
  ],
);
