// Whether reply detection runs for this user: only in a build with the Gmail advanced service
// (REPLY_DETECTION=gmail), and only once the user turned "Detect replies in Gmail" on in Settings (off by
// default; a user property: the user's choice in all their documents).
import { missingScopes, readPreference, savePreference } from '../../platform';
import { gmailService } from './gmail-read';
import { INBOX_TEXTS } from './inbox-texts';

const SWITCH = 'detectReplies';

export interface ReplyDetectionView {
  /** The build can read Gmail: Settings shows the switch. */
  available: boolean;
  on: boolean;
  /** On, but the Gmail permission was refused: what to do ('' otherwise). */
  refused: string;
}

export function replyDetection(): ReplyDetectionView {
  const available = gmailService() !== null;
  const on = available && readPreference<boolean>(SWITCH) === true;
  const refused = on && missingScopes(['gmail']).length > 0 ? INBOX_TEXTS.refused() : '';
  return { available, on, refused };
}

/** Saves the user's switch (ignored where the build cannot read Gmail). */
export function setReplyDetection(on: boolean): void {
  if (gmailService() !== null) savePreference(SWITCH, on);
}
