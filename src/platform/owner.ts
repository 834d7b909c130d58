// Who pays. A document is shared: every editor's executions read and write the same document properties,
// but each user has their own user properties, key and triggers. What authorizes spending (a saved job, a
// chunk in doubt, a scheduled send) records its owner: a random token kept in the owner's user properties
// (no e-mail address is stored, and the add-on does not ask for the scope that reads it), and a fingerprint
// of the key it spends, so that only that user, with that key, settles, continues or resumes it.
import { keyOf, readSettings, type Service } from './settings';

export interface OwnerStamp {
  /** userToken() of the user who confirmed the work. */
  owner: string;
  /** keyFingerprint() of the key it spends. */
  keyFp: string;
  /** When it was confirmed (ms). */
  at: number;
}

// Every feature reads it, not only the hourly trigger; the stored key keeps this name, since another would make each user
// a stranger to the jobs and records they own.
const TOKEN = 'timer.userToken';

/** Read once per execution (each execution starts afresh): jobs ask for it before every unit. */
let known: string | undefined;

/** This user's random token (made once, kept in their user properties). */
export function userToken(): string {
  if (known) return known;
  const props = PropertiesService.getUserProperties();
  let token = props.getProperty(TOKEN);
  if (!token) {
    token = Utilities.getUuid().replace(/-/g, '').slice(0, 16);
    props.setProperty(TOKEN, token);
  }
  return (known = token);
}

/** 12 hex characters of the key's SHA-256: tells keys apart, and says nothing of the key. */
function keyFingerprint(key: string): string {
  if (!key) return '';
  const bytes = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, key, Utilities.Charset.UTF_8);
  return bytes
    .slice(0, 6)
    .map((b) => ((b + 256) % 256).toString(16).padStart(2, '0'))
    .join('');
}

/** The current user's stamp for work that spends the key of `service`. */
export function ownerStamp(service: Service): OwnerStamp {
  return { owner: userToken(), keyFp: keyFingerprint(keyOf(readSettings(), service)), at: Date.now() };
}

/** Whose the work is, seen from the current user. */
type Ownership = 'mine' | 'my-other-key' | 'other';

export function ownershipOf(stamp: Partial<OwnerStamp>, service: Service): Ownership {
  if (stamp.owner !== userToken()) return 'other';
  return stamp.keyFp === keyFingerprint(keyOf(readSettings(), service)) ? 'mine' : 'my-other-key';
}
