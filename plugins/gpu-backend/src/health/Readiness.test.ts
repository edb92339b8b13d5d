import { mockServices } from '@backstage/backend-test-utils';
import { Readiness } from './Readiness';

describe('Readiness', () => {
  it('is ready with no checks', async () => {
    expect(await new Readiness().notReady()).toEqual([]);
  });

  it('names an awaited check until it is marked ready, and only then', async () => {
    const readiness = new Readiness();
    readiness.awaits('index', 'not indexed yet');
    expect(await readiness.notReady()).toEqual([
      { check: 'index', reason: 'not indexed yet' },
    ]);
    readiness.markReady('index');
    expect(await readiness.notReady()).toEqual([]);
  });

  it('tries a probe on each question until it succeeds once, then never again', async () => {
    const logger = mockServices.logger.mock();
    const readiness = new Readiness(logger);
    const probe = jest
      .fn<Promise<void>, []>()
      .mockRejectedValueOnce(new Error('catalog: 503'))
      .mockRejectedValueOnce(new Error('catalog: 503'))
      .mockResolvedValueOnce(undefined)
      .mockRejectedValue(new Error('down again'));
    readiness.probes('catalog', 'no answer yet', probe);

    const notYet = [{ check: 'catalog', reason: 'no answer yet' }];
    expect(await readiness.notReady()).toEqual(notYet);
    expect(await readiness.notReady()).toEqual(notYet);
    expect(await readiness.notReady()).toEqual([]);
    // Ready once is ready: the probe is not asked again.
    expect(await readiness.notReady()).toEqual([]);
    expect(probe).toHaveBeenCalledTimes(3);
    // The same failure is logged once, not on every poll.
    expect(logger.warn).toHaveBeenCalledTimes(1);
    expect(logger.warn).toHaveBeenCalledWith(
      'GPU backend not ready (catalog): catalog: 503',
    );
  });
});
