import { benchAllocationIndex } from './allocationIndex.bench';
import { benchCliStart } from './cliStart.bench';
import { benchLiveData } from './liveData.bench';
import { benchPlanRender } from './planRender.bench';
import { benchPrCommand } from './prCommand.bench';
import { benchScale } from './scale.bench';

const benchmarks: Record<string, () => Promise<void>> = {
  'plan-render': benchPlanRender,
  pr: benchPrCommand,
  'allocation-index': benchAllocationIndex,
  'live-data': benchLiveData,
  scale: benchScale,
  'cli-start': benchCliStart,
};

export async function runBenchmarks(only: string[]): Promise<void> {
  const names = only.length > 0 ? only : Object.keys(benchmarks);
  for (const name of names) {
    const bench = benchmarks[name];
    if (!bench)
      throw new Error(
        `unknown benchmark "${name}"; have ${Object.keys(benchmarks).join(', ')}`,
      );
    await bench();
  }
}
