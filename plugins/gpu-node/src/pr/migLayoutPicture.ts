/**
 * A text picture of one GPU's MIG layout by memory slice, e.g.
 * `[3g.20gb        |2g.10gb|2g.10gb]`: reviewers see at a glance which
 * instances share a GPU and what memory stays unused.
 */
import { fitMig, type GpuModel } from '@gpu-gitops/plugin-gpu-common';

const FREE = '·';

export function migLayoutPicture(
  model: GpuModel,
  layout: Record<string, number>,
): string | undefined {
  const geometry = model.mig;
  if (!geometry) return undefined;
  const fit = fitMig(model, layout);
  if (!fit.fits) return undefined;
  const placement = [...fit.placement].sort((a, b) => a.start - b.start);

  // Segments in slice order, free gaps included.
  const segments: { label: string; slices: number }[] = [];
  let cursor = 0;
  for (const p of placement) {
    if (p.start > cursor)
      segments.push({ label: '', slices: p.start - cursor });
    segments.push({ label: p.profile, slices: p.memorySlices });
    cursor = p.start + p.memorySlices;
  }
  if (cursor < geometry.memorySlices) {
    segments.push({ label: '', slices: geometry.memorySlices - cursor });
  }

  // Characters per memory slice: wide enough that every label fits its segment.
  const perSlice = Math.max(
    2,
    ...segments.map(s => Math.ceil((s.label.length + 1) / s.slices)),
  );
  const cells = segments.map(s => {
    const width = s.slices * perSlice - 1;
    return s.label ? s.label.padEnd(width, ' ') : FREE.repeat(width);
  });
  return `[${cells.join('|')}]`;
}
