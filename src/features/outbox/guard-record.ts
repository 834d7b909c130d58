// What the payer's record keeps of a list's bounce guard (bounce-guard.ts), a field of its list in ledger.ts.
/** When the guard paused the list, and the counts it judged. */
export interface GuardPause {
  at: number;
  failed: number;
  final: number;
}

export interface GuardRecord {
  /** The threshold confirmed (percent). */
  limit: number;
  /** The final mail ids counted: [gap after the previous run's end, run length, …], ascending. */
  ids: number[];
  final: number;
  failed: number;
  /** [final, failed] when the payer last resumed: the guard judges the mails after them. */
  base?: [number, number];
  paused?: GuardPause;
  /** The payer was told of the pause (their next menu action or Compose). */
  told?: boolean;
}
