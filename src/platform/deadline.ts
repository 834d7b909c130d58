// Apps Script stops a menu, trigger or sidebar execution after 6 minutes and a custom function after 30 s,
// losing whatever was not written. Long work checks a deadline and stops early, leaving room to save.

const EXECUTION_LIMIT_MS = 6 * 60 * 1000;
export const CUSTOM_FUNCTION_LIMIT_MS = 30 * 1000;

// Apps Script evaluates the whole script at the start of every execution, so this is when the execution's
// clock started: the time a user spends in a confirmation dialog counts against the limit too.
const EXECUTION_STARTED_AT = Date.now();

/** When Apps Script ends this execution at the latest (a menu, trigger or sidebar execution). */
export function executionEnd(): number {
  return EXECUTION_STARTED_AT + EXECUTION_LIMIT_MS;
}

export class Deadline {
  readonly at: number;

  constructor(budgetMs: number, start = Date.now()) {
    this.at = start + budgetMs;
  }

  /** A deadline for long work in a 6-minute execution: stop after 4.5 minutes, leaving time to save. */
  static forExecution(): Deadline {
    return new Deadline(EXECUTION_LIMIT_MS * 0.75, EXECUTION_STARTED_AT);
  }

  /** A custom function must answer within 30 s: keep 8 s for Sheets and the spill. */
  static forCustomFunction(): Deadline {
    return new Deadline(CUSTOM_FUNCTION_LIMIT_MS - 8000, EXECUTION_STARTED_AT);
  }

  remaining(): number {
    return this.at - Date.now();
  }

  passed(marginMs = 0): boolean {
    return this.remaining() <= marginMs;
  }
}
