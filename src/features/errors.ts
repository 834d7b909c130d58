// The words of an error as every surface shows them (alerts, status cells, the Tracking summary, a page's
// message): UserError, the error whose message is already the user's words; describe(), any error in words;
// and what a refused permission (granular consent) says: which permission, what it is for, how to grant it.
// Every entry point checks the permissions it needs before it starts (entry-guards.ts, the hourly trigger,
// the custom functions); describe() says a refusal that still reaches a service call ("You do not have
// permission to call …") in the same words. It owns no decision: code that acts on an error reads its kind
// (ApiError), never the words made here. No text it returns may hold a fragment of an API key.
import { ApiError, redact } from '../api';
import { refusedScope, type ScopeName } from '../platform';
import { isStoreFull, STORE_FULL_TEXT } from './storage';

/** A mistake the user can fix, said in their words; `field` names the input it concerns (sidebar forms). */
export class UserError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * The words of an error for the user. An ApiError was redacted when it was made (the transport knows both
 * keys); any other error's text is redacted here.
 */
export function describe(error: unknown): string {
  if (isStoreFull(error)) return STORE_FULL_TEXT;
  if (error instanceof ApiError)
    return error.action ? `${error.userMessage} ${error.action}` : error.userMessage;
  const text = error instanceof Error ? error.message : String(error);
  return refusalText(text) || hideKeys(text);
}

/**
 * The API keys this execution's clients were given (clients.ts): a key reaches an error's text only through a
 * request made with it, so these are the keys to hide.
 */
const keysInUse = new Set<string>();

/** Called by clients.ts with the keys of each client it builds. */
export function hideKeysInErrors(keys: readonly string[]): void {
  for (const key of keys) if (key) keysInUse.add(key);
}

/** The text with any fragment of the keys in use hidden (redact()). */
function hideKeys(text: string): string {
  return keysInUse.size ? redact(text, [...keysInUse]) : text;
}

/** How Google's consent screen names each permission, and what the add-on needs it for. */
const PERMISSIONS: Record<ScopeName, { name: string; purpose: string }> = {
  sheet: {
    name: '"See, edit, create and delete only the specific Google Sheets files you use with this app"',
    purpose: 'to read your lists and write results into this spreadsheet',
  },
  fetch: {
    name: '"Connect to an external service"',
    purpose: 'to reach the prospecting, e-mail and phone-check services with your API keys',
  },
  ui: {
    name: '"Display and run third-party web content in prompts and sidebars inside Google applications"',
    purpose: 'to show its dialogs, the sidebar and questions',
  },
  triggers: {
    name: '"Allow this application to run when you are not present"',
    purpose:
      'for the hourly run behind auto-refresh, sends scheduled for later and work that goes on by itself',
  },
  gmail: {
    name: '"View your email messages and settings"',
    purpose:
      'to see the replies, out-of-office answers and bounces your mails get, so follow-ups stop by themselves',
  },
};

const GRANT_HOW = (one: boolean) =>
  `To grant ${one ? 'it' : 'them'}: pick the item again in Extensions › Outreach and tick ${one ? 'that permission' : 'them'} on the Google consent screen (or remove the add-on's access at myaccount.google.com/permissions and allow it again with every box ticked).`;

/** The sentence for permissions the user has not granted, for `action` (e.g. "Auto-refresh tracking"). */
export function consentText(action: string, missing: readonly ScopeName[]): string {
  const parts = missing.map((scope) => `${PERMISSIONS[scope].name} (${PERMISSIONS[scope].purpose})`);
  const one = parts.length === 1;
  const which = one ? `the permission ${parts[0]}` : `the permissions ${parts.join(' and ')}`;
  return `${action} needs ${which}, which ${one ? 'was' : 'were'} not granted to the add-on. ${GRANT_HOW(one)}`;
}

/** Apps Script's own refusal ("You do not have permission to call …"), in the add-on's words; else null. */
function refusalText(text: string, action = 'This action'): string | null {
  const scope = refusedScope(text);
  return scope ? consentText(action, [scope]) : null;
}
