// features/schedule: what other folders use of it (the only file they import).
export { cancelWaitingOrScheduledSend } from './cancel';
export { cancelScheduledSend, scheduleSend } from './scheduled-send';
