// features/tracking: what other folders use of it (the only file they import).
export { refreshTracking } from './tracking';
export { autoRefreshHourly, refreshHourly, toggleAutoRefresh } from './tracking-auto';
export { TRACKING_JOB } from './tracking-job';
export { showMailDetail } from './tracking-mail';
export { campaignOf, capitalized, TASK_STATUS_TEXTS } from './tracking-rows';
export { writeStatusBlock } from './tracking-summary';
