// Time-driven triggers of an editor add-on (Google's "Triggers for Editor add-ons" page): created in code
// only, at most hourly, one time-driven trigger per user per document, and they run as the user who made
// them. A trigger is found by the id kept when it was made, among getProjectTriggers() ("all installable
// triggers associated with the current project and current user", time-driven ones included). For an
// add-on that list holds this user's triggers in every document, so nothing here touches a trigger by its
// handler name alone: only by id, or (to adopt one made before ids were kept) among getUserTriggers of
// this document, which may or may not list time-driven triggers (they have no source document).

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Trigger = GoogleAppsScript.Script.Trigger;

/** This user's trigger with that id, or null. */
export function triggerById(id: string | undefined): Trigger | null {
  if (!id) return null;
  return ScriptApp.getProjectTriggers().find((t) => t.getUniqueId() === id) || null;
}

/** A new hourly trigger running `handler`. */
export function createHourlyTrigger(handler: string): Trigger {
  return ScriptApp.newTrigger(handler).timeBased().everyHours(1).create();
}

/** A time-driven trigger of this user in this document running one of `handlers`, when the list shows it. */
export function listedClockTrigger(spreadsheet: Spreadsheet, handlers: string[]): Trigger | null {
  return (
    ScriptApp.getUserTriggers(spreadsheet).find(
      (t) => t.getEventType() === ScriptApp.EventType.CLOCK && handlers.includes(t.getHandlerFunction()),
    ) || null
  );
}

/** Deletes this user's triggers with these ids; returns how many. */
export function deleteTriggers(ids: string[]): number {
  if (ids.length === 0) return 0;
  const triggers = ScriptApp.getProjectTriggers().filter((t) => ids.includes(t.getUniqueId()));
  triggers.forEach((t) => ScriptApp.deleteTrigger(t));
  return triggers.length;
}

/**
 * True when the add-on needs the user's authorization again (a trigger keeps firing all the same). `scopes`:
 * only those count (an optional permission the user refused, such as Gmail's, does not stop the rest).
 */
export function needsReauthorization(scopes?: string[]): boolean {
  const app = ScriptApp as unknown as {
    getAuthorizationInfo(
      mode: GoogleAppsScript.Script.AuthMode,
      scopes?: string[],
    ): GoogleAppsScript.Script.AuthorizationInfo;
  };
  const info = scopes
    ? app.getAuthorizationInfo(ScriptApp.AuthMode.FULL, scopes)
    : app.getAuthorizationInfo(ScriptApp.AuthMode.FULL);
  return info.getAuthorizationStatus() === ScriptApp.AuthorizationStatus.REQUIRED;
}
