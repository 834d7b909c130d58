// Time-driven triggers of an editor add-on (Google's "Triggers for Editor add-ons" page): created in code
// only, at most hourly, one time-driven trigger per user per document, and they run as the user who made
// them. A trigger belongs to the document it was created in, so everything here takes that spreadsheet and
// looks at this user's triggers in it only (getProjectTriggers would also list this user's triggers in
// other documents, which must never be touched from here).

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;
type Trigger = GoogleAppsScript.Script.Trigger;

/** This user's time-driven triggers in this document that run `handler`. */
export function clockTriggers(spreadsheet: Spreadsheet, handler: string): Trigger[] {
  return ScriptApp.getUserTriggers(spreadsheet).filter(
    (t) => t.getHandlerFunction() === handler && t.getEventType() === ScriptApp.EventType.CLOCK,
  );
}

/** An hourly trigger running `handler`; an existing one is kept (turning it on twice keeps one). */
export function ensureHourlyTrigger(spreadsheet: Spreadsheet, handler: string): 'created' | 'kept' {
  if (clockTriggers(spreadsheet, handler).length > 0) return 'kept';
  ScriptApp.newTrigger(handler).timeBased().everyHours(1).create();
  return 'created';
}

/** Deletes this user's triggers of `handler` in this document; returns how many. */
export function removeClockTriggers(spreadsheet: Spreadsheet, handler: string): number {
  const triggers = clockTriggers(spreadsheet, handler);
  triggers.forEach((t) => ScriptApp.deleteTrigger(t));
  return triggers.length;
}

/** Deletes the trigger that started this execution (its id is in the event), wherever it was made. */
export function removeTriggerById(uid: string | undefined): boolean {
  if (!uid) return false;
  const trigger = ScriptApp.getProjectTriggers().find((t) => t.getUniqueId() === uid);
  if (trigger) ScriptApp.deleteTrigger(trigger);
  return !!trigger;
}
