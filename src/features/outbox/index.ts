// features/outbox: what other folders use of it (the only file they import).
export {
  countFinalMails,
  DEFAULT_BOUNCE_LIMIT,
  GUARD_MIN_FINAL,
  guardPause,
  guardView,
  guardViews,
  pauseDetail,
  resumeGuard,
  untoldPauses,
} from './bounce-guard';
export {
  type Confirmed,
  type ConfirmedRef,
  confirmSend,
  type FirstVerdict,
  forgetConfirmed,
  mailedBefore,
  openConfirmed,
  personOf,
  reconfirmMail,
  sequenceReach,
  STEPS_CHANGED,
  stepsChanged,
  stepsToCome,
  tooManyToConfirm,
} from './confirm';
export { countryZone, SEVERAL_ZONES } from './country-zones';
export { dailyLine, dayRoom, nextDay } from './daily-limit';
export {
  addSelectedToDoNotContact,
  type DoNotContact,
  listedReason,
  listedStatus,
  listedText,
  listOnDoNotContact,
  readDoNotContact,
} from './do-not-contact';
export {
  dueAt,
  type FollowUp,
  MAX_FOLLOW_UPS,
  parseFollowUps,
  stepCampaign,
  stepProblems,
  stepTemplate,
} from './follow-ups';
export { closeEntry, idsOf, lastSendAt, openChunks } from './journal';
export {
  type AnswerCode,
  Ledger,
  type LedgerList,
  type Person,
  STEP_READ_SLACK_MS,
  type StopCode,
} from './ledger';
export { idCells } from './list-view';
export {
  type BodyFormat,
  type MailTemplate,
  MAX_CAMPAIGN,
  renderMail,
  templateChecks,
  templateProblems,
  templateWarnings,
} from './mail-template';
export { loadTemplate, type StoredTemplate, storeTemplate } from './mail-templates';
export { addressMark, mailMark } from './marks';
export {
  type Batch,
  BATCH_CHUNKS,
  closeBatch,
  listOf,
  postBatch,
  postTestMail,
  SEND_CHUNK,
  SEND_LEASE,
  settleOpen,
} from './outbox';
export { type Posted } from './post';
export { type PostedPairs } from './posted-mails';
export { QUOTA_WAIT_DAYS, quotaWait } from './quota-wait';
export { openMailingList, problemState, rowProblem } from './row-check';
export {
  allSchedules,
  claimSchedule,
  deleteSchedule,
  dropUnrunnable,
  EXPIRES_AFTER_MS,
  mySchedules,
  saveSchedule,
  type ScheduleCheck,
  type ScheduledSend,
  scheduleOf,
  scheduleView,
  type ScheduleView,
  whyCannotRun,
} from './scheduled-sends';
export { parseWhen, startWindowText } from './scheduled-send-time';
export { SEND_TEXTS, withFallback } from './send-texts';
export {
  hourRoom,
  nextHour,
  openingText,
  parseTiming,
  sendClock,
  type SendClock,
  type Timing,
} from './send-timing';
export {
  allSequences,
  clearStopRequests,
  endSequence,
  mySequences,
  otherSequenceOnSheet,
  requestStops,
  saveSequence,
  sequenceOf,
  type SequenceRecord,
  startSequence,
  stopRequests,
  type Wait,
} from './sequence-records';
export { readStepMails, writeStepMails } from './step-mails';
export { decideTest, parseSubjectTest, subjectSlot, type SubjectTest } from './subject-test';
export { showTest, testSummary } from './test-records';
export { companyDomain } from './webmail';
