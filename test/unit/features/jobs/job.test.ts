// src/features/jobs/job.ts: where a saved job stands is one status, never a set of flags: working (no
// status), paused until a time, or stopped (by the user or by a problem); what goes on and what waits is
// read from it.
import '../../build-constants'; // job.ts reads the owner's stamp (platform/owner.ts → settings)
import {
  hasWorkLeft,
  isStopped,
  JobPause,
  type JobState,
  JobStop,
  pausedUntil,
} from '../../../../src/features/jobs/job';

const state = (status?: JobState<number, null>['status'], units = [1, 2]): JobState<number, null> => ({
  v: 1,
  units,
  total: 2,
  data: null,
  status,
});

describe('a job status', () => {
  test('working: units left go on, nothing waits', () => {
    expect(hasWorkLeft(state())).toBe(true);
    expect(isStopped(state())).toBe(false);
    expect(pausedUntil(state())).toBe(0);
    expect(hasWorkLeft(state(undefined, []))).toBe(false);
  });

  test('paused: kept, with the time no step runs before', () => {
    const paused = state({ is: 'paused', until: 5_000, message: 'Run it again after 10:00.' });
    expect(hasWorkLeft(paused)).toBe(true);
    expect(isStopped(paused)).toBe(false);
    expect(pausedUntil(paused)).toBe(5_000);
  });

  test('stopped, by the user or by a problem: over, whatever units were left', () => {
    for (const byUser of [true, false]) {
      const stopped = state({ is: 'stopped', byUser, message: 'Stopped, as you asked.' });
      expect(isStopped(stopped)).toBe(true);
      expect(hasWorkLeft(stopped)).toBe(false);
      expect(pausedUntil(stopped)).toBe(0);
    }
  });
});

test('what a unit of work throws to stop or pause its job carries the words and the time', () => {
  expect(new JobStop('No credits left.')).toMatchObject({ name: 'JobStop', message: 'No credits left.' });
  expect(new JobPause('Wait an hour.', 42)).toMatchObject({
    name: 'JobPause',
    message: 'Wait an hour.',
    until: 42,
  });
});
