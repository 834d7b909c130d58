// features/inbox: what other folders use of it (the only file they import).
export { answerLine, answerOfRecipient, bouncedMails, replyDetectionLine, scanReplies } from './inbox';
export { replyDetection, type ReplyDetectionView, setReplyDetection } from './inbox-switch';
export { INBOX_TEXTS } from './inbox-texts';
