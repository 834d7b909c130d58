// features/jobs: what other folders use of it (the only file they import).
export {
  hasWorkLeft,
  isStopped,
  type JobDefinition,
  JobPause,
  type JobState,
  JobStop,
  keyChangedText,
  pausedUntil,
  type Reporter,
  type SliceContext,
} from './job';
export {
  continueSavedJob,
  DIALOG_REPORTER,
  endJob,
  newJobState,
  runSlice,
  savedJob,
  startJob,
  stopSavedJob,
} from './job-runner';
export {
  BUSY_MESSAGE,
  clearJob,
  forgetUnseenReport,
  isJobKind,
  type JobKind,
  type JobProgress,
  loadJob,
  otherJobs,
  readProgress,
  saveJob,
  stopRequested,
  withJobLease,
} from './job-store';
export {
  lastRun,
  MENU_REPORTER,
  recordLastRun,
  reportBackgroundWork,
  unattendedReporter,
  type UnattendedWork,
} from './reporters';
export {
  adoptRunningTrigger,
  ensureHourlyTrigger,
  releaseHourlyTriggerIfIdle,
  removeMyHourlyTrigger,
  hourlyWorkLeft,
} from './hourly-trigger';
export {
  allHourlyTriggers,
  type AutoRefresh,
  myHourlyTrigger,
  saveMyHourlyTrigger,
} from './hourly-trigger-store';
