// features/schedule: what other folders use of it (the only file they import).
export { cancelTimedSend } from './cancel';
export { cancelScheduledSend, scheduleSend } from './send-later';
