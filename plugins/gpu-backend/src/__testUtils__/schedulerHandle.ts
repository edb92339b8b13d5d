import {
  coreServices,
  createBackendModule,
  type SchedulerService,
} from '@backstage/backend-plugin-api';

/**
 * A backend module that hands the test the gpu plugin's scheduler, so it can
 * trigger the index refresh (`INDEX_REFRESH_TASK_ID`) when it wants one.
 */
export function schedulerHandle() {
  let scheduler: SchedulerService | undefined;
  const module = createBackendModule({
    pluginId: 'gpu',
    moduleId: 'test-scheduler-handle',
    register(env) {
      env.registerInit({
        deps: { s: coreServices.scheduler },
        async init({ s }) {
          scheduler = s;
        },
      });
    },
  });
  return {
    module,
    /** The scheduler, once the backend has started. */
    scheduler(): SchedulerService {
      if (!scheduler) throw new Error('the backend has not started');
      return scheduler;
    },
  };
}
