// What the ledger keeps of a list's bounce guard (bounce-guard.ts), a field of its list in ledger.ts.
/** When the guard paused the list, and the counts it judged. */
export interface GuardPause {
  at: number;
  failed: number;
  final: number;
}

export interface GuardRecord {
  /** The threshold confirmed (percent). */
  limit: number;
  /** The final mail ids counted, as spans (id-runs.ts encodeSpans). */
  ids: string;
  final: number;
  failed: number;
  /** [final, failed] when the payer last resumed: the guard judges the mails after them. */
  base?: [number, number];
  paused?: GuardPause;
  /** The payer was told of the pause (their next menu action or Compose). */
  told?: boolean;
  /** The daily limit confirmed (daily-limit.ts): mails a day, and the ramp (percent a day; 0: none). */
  daily?: { limit: number; ramp: number };
  /** Today under the daily limit. */
  day?: DailyRecord;
}

/** What of a mail's timing (send-timing.ts Timing) the guard binds when the payer confirms. */
export interface GuardTiming {
  bounceLimit?: number;
  dailyLimit?: number;
  dailyRamp?: number;
}

/** A day of a list under its daily limit: day `index` from `start` (ms of its first mail), `n` posted of `cap`. */
export interface DailyRecord {
  start: number;
  index: number;
  n: number;
  cap: number;
  /** The bounce guard paused the list this day: the next day's cap does not rise. */
  paused?: boolean;
}
