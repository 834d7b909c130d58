// Granular consent (Google, 2025): a user may grant some of the add-on's scopes and refuse others. What an
// execution may use is asked with ScriptApp.getAuthorizationInfo(AuthMode.FULL, scopes) (the reference of
// AuthorizationInfo: "Some script executions can start without a user's consent to all required scopes");
// ScriptApp.requireScopes ends the execution with Google's consent prompt. Where ScriptApp cannot be
// called (a custom function), nothing is known missing: the service call's own refusal is translated later.
// It owns the scope names and what is granted; the words a refusal says are features/errors.ts's.

export const SCOPES = {
  sheet: 'https://www.googleapis.com/auth/spreadsheets.currentonly',
  fetch: 'https://www.googleapis.com/auth/script.external_request',
  ui: 'https://www.googleapis.com/auth/script.container.ui',
  triggers: 'https://www.googleapis.com/auth/script.scriptapp',
} as const;

export type ScopeName = keyof typeof SCOPES;

/** The 2025 signatures (the @types package still has the one-argument form without getAuthorizedScopes). */
interface GranularScriptApp {
  getAuthorizationInfo(
    mode: GoogleAppsScript.Script.AuthMode,
    scopes: string[],
  ): {
    getAuthorizationStatus(): GoogleAppsScript.Script.AuthorizationStatus;
    getAuthorizedScopes(): string[] | null;
  };
}

/**
 * The scopes of `names` this user has not granted (empty when all are, or when it cannot be asked). The
 * status answers for the scopes asked about; which of them are granted is getAuthorizedScopes() (all of
 * them are taken as missing when it gives no list).
 */
export function missingScopes(names: readonly ScopeName[]): ScopeName[] {
  if (names.length === 0) return [];
  let granted: string[] | null;
  try {
    const app = ScriptApp as unknown as GranularScriptApp;
    const info = app.getAuthorizationInfo(
      ScriptApp.AuthMode.FULL,
      names.map((n) => SCOPES[n]),
    );
    if (info.getAuthorizationStatus() !== ScriptApp.AuthorizationStatus.REQUIRED) return [];
    granted = info.getAuthorizedScopes();
  } catch {
    return []; // ScriptApp is not available here (a custom function): the call's refusal says it
  }
  return names.filter((n) => !(granted || []).includes(SCOPES[n]));
}

/** Ends the execution with Google's consent prompt for these scopes (nothing else can be shown without the UI scope). */
export function promptForScopes(names: readonly ScopeName[]): void {
  ScriptApp.requireScopes(
    ScriptApp.AuthMode.FULL,
    names.map((n) => SCOPES[n]),
  );
}

/** The scope an Apps Script "You do not have permission to call …" error names, when it is one of ours. */
export function refusedScope(text: string): ScopeName | null {
  if (!/You do not have permission to call/i.test(text)) return null;
  const found = (Object.keys(SCOPES) as ScopeName[]).find((n) => text.includes(SCOPES[n]));
  if (found) return found;
  if (/UrlFetchApp/.test(text)) return 'fetch';
  if (/ScriptApp|TriggerBuilder/.test(text)) return 'triggers';
  if (/Ui\.|showSidebar|showModalDialog/.test(text)) return 'ui';
  if (/SpreadsheetApp|Range\.|Sheet\./.test(text)) return 'sheet';
  return null;
}
