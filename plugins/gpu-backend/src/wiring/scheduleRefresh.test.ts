import type {
  SchedulerServiceTaskInvocationDefinition,
  SchedulerServiceTaskScheduleDefinition,
} from '@backstage/backend-plugin-api';
import { mockServices } from '@backstage/backend-test-utils';
import { scheduleRefresh } from './scheduleRefresh';

type ScheduledTask = SchedulerServiceTaskScheduleDefinition &
  SchedulerServiceTaskInvocationDefinition;

function recordingScheduler() {
  const tasks: ScheduledTask[] = [];
  const scheduler = mockServices.scheduler.mock({
    scheduleTask: async task => {
      tasks.push(task);
    },
  });
  return { scheduler, tasks };
}

const signal = () => new AbortController().signal;

describe('scheduleRefresh', () => {
  it('passes the id, scope, configured frequency and timeout, and starts at once', async () => {
    const { scheduler, tasks } = recordingScheduler();
    await scheduleRefresh(scheduler, {
      id: 'gpu-some-refresh',
      scope: 'local',
      frequency: { seconds: 90 },
      timeout: { minutes: 5 },
      run: async () => {},
    });
    expect(scheduler.scheduleTask).toHaveBeenCalledTimes(1);
    const { fn, ...definition } = tasks[0];
    expect(definition).toEqual({
      id: 'gpu-some-refresh',
      scope: 'local',
      frequency: { seconds: 90 },
      timeout: { minutes: 5 },
    });
    expect(typeof fn).toBe('function');
  });

  it('runs the work on each invocation', async () => {
    const { scheduler, tasks } = recordingScheduler();
    const run = jest.fn(async () => true);
    await scheduleRefresh(scheduler, {
      id: 'gpu-some-refresh',
      scope: 'global',
      frequency: { minutes: 1 },
      timeout: { minutes: 30 },
      run,
    });
    await tasks[0].fn(signal());
    await tasks[0].fn(signal());
    expect(run).toHaveBeenCalledTimes(2);
  });

  it("hands each run the scheduler's abort signal, so a run past its timeout can stop", async () => {
    const { scheduler, tasks } = recordingScheduler();
    const seen: AbortSignal[] = [];
    await scheduleRefresh(scheduler, {
      id: 'gpu-some-refresh',
      scope: 'global',
      frequency: { minutes: 1 },
      timeout: { minutes: 30 },
      run: async runSignal => {
        seen.push(runSignal);
      },
      failureWarning: {
        logger: mockServices.logger.mock(),
        failed: 'Updating the things',
      },
    });
    const controller = new AbortController();
    await tasks[0].fn(controller.signal);
    expect(seen).toEqual([controller.signal]);
  });

  it('logs a failed run as a warning and ends the invocation normally when told what failed', async () => {
    const { scheduler, tasks } = recordingScheduler();
    const logger = mockServices.logger.mock();
    await scheduleRefresh(scheduler, {
      id: 'gpu-some-refresh',
      scope: 'global',
      frequency: { minutes: 1 },
      timeout: { minutes: 30 },
      run: async () => {
        throw new Error('the forge said no');
      },
      failureWarning: { logger, failed: 'Updating the things' },
    });
    await expect(tasks[0].fn(signal())).resolves.toBeUndefined();
    expect(logger.warn).toHaveBeenCalledWith(
      'Updating the things failed: the forge said no',
    );
  });

  it('leaves a failed run to the scheduler without a failure warning', async () => {
    const { scheduler, tasks } = recordingScheduler();
    await scheduleRefresh(scheduler, {
      id: 'gpu-some-refresh',
      scope: 'local',
      frequency: { minutes: 5 },
      timeout: { minutes: 2 },
      run: async () => {
        throw new Error('no answer');
      },
    });
    await expect(tasks[0].fn(signal())).rejects.toThrow('no answer');
  });
});
