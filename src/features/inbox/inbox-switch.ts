// Whether reply detection runs for this user: only in a build with the Gmail advanced service
// (REPLY_DETECTION=gmail), and only once the user turned "Detect replies in Gmail" on in Settings (off by
// default; a user property: the user's choice in all their documents).
import { readPreference, savePreference } from '../../platform/preferences';
import { gmailService } from './gmail-read';

const SWITCH = 'detectReplies';

export interface ReplyDetectionView {
  /** The build can read Gmail: Settings shows the switch. */
  available: boolean;
  on: boolean;
}

export function replyDetection(): ReplyDetectionView {
  const available = gmailService() !== null;
  return { available, on: available && readPreference<boolean>(SWITCH) === true };
}

/** Saves the user's switch (ignored where the build cannot read Gmail). */
export function setReplyDetection(on: boolean): void {
  if (gmailService() !== null) savePreference(SWITCH, on);
}
