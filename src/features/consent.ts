// What the add-on says when the user refused one of its permissions (granular consent): which permission,
// what it is for, how to grant it. Every entry point checks the permissions it needs before it starts
// (entry-guards.ts, the hourly trigger, the custom functions), and describe() translates a refusal that
// still reaches a service call ("You do not have permission to call …") into the same words.
import { missingScopes, refusedScope, type ScopeName } from '../platform/consent';
import { UserError } from './inputs';

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

export const GRANT_HOW =
  "To grant it: pick the item again in Extensions › Outreach and tick that permission on the Google consent screen (or remove the add-on's access at myaccount.google.com/permissions and allow it again with every box ticked).";

/** The sentence for permissions the user has not granted, for `action` (e.g. "Auto-refresh tracking"). */
export function consentText(action: string, missing: readonly ScopeName[]): string {
  const parts = missing.map((scope) => `${PERMISSIONS[scope].name} (${PERMISSIONS[scope].purpose})`);
  const one = parts.length === 1;
  const which = one ? `the permission ${parts[0]}` : `the permissions ${parts.join(' and ')}`;
  const how = one
    ? GRANT_HOW
    : GRANT_HOW.replace('To grant it', 'To grant them').replace('tick that permission', 'tick them');
  return `${action} needs ${which}, which ${one ? 'was' : 'were'} not granted to the add-on. ${how}`;
}

/** A permission the user refused: features and guards show its text as any other UserError. */
export class ConsentError extends UserError {
  constructor(
    readonly action: string,
    readonly missing: ScopeName[],
  ) {
    super(consentText(action, missing));
    this.name = 'ConsentError';
  }
}

/** Throws a ConsentError when one of `scopes` is not granted. */
export function requireConsent(action: string, scopes: readonly ScopeName[]): void {
  const missing = missingScopes(scopes);
  if (missing.length > 0) throw new ConsentError(action, missing);
}

/** Apps Script's own refusal ("You do not have permission to call …"), in the add-on's words; else null. */
export function refusalText(text: string, action = 'This action'): string | null {
  const scope = refusedScope(text);
  return scope ? consentText(action, [scope]) : null;
}
