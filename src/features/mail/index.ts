// features/mail: what other folders use of it (the only file they import).
export { getComposeState, previewMail, saveTemplate, sendTestMail, showComposeDialog } from './compose';
export { addNextContacts } from './next-contact';
export { resumePausedList, sayPausesOnce } from './resume';
export {
  costLines,
  dropSend,
  launchSend,
  type PreparedSend,
  prepareSend,
  sendAllUnsentRows,
  sendSelectedRows,
  writeStatuses,
} from './send';
export { rowsLeft, SEND_JOB, type SendData, type SendUnit } from './send-job';
export { otherSendOnSheet } from './send-owners';
export { skippedLines } from './send-plan';
