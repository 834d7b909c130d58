// What tracking keeps between executions, in document properties (every editor's executions and the
// hourly trigger see the same): the outcome of the last refresh and the auto-refresh switch. Which mails are
// final is on the Tracking sheet, not here: nothing kept grows with the mails sent.

export type RefreshOrigin = 'menu' | 'timer';

/** How the last refresh ended (the runner clears the job's state when it ends, so this is kept apart). */
export interface RefreshOutcome {
  at: number;
  origin: RefreshOrigin;
  message: string;
  error?: string;
  /** ApiError kind that stopped it ('auth', 'missing-key', …). */
  stopKind?: string;
  /** Every task and every mail tracked is final: nothing will change any more. */
  allFinal?: boolean;
}

/** The auto-refresh switch of this document. */
export interface AutoRefresh {
  on: boolean;
  /** When it was turned on (ms). */
  since: number;
  /** Trigger runs in a row that failed with an unexpected error. */
  failures: number;
  /** When and why it turned itself off. */
  offAt?: number;
  offReason?: string;
}

const OUTCOME = 'tracking.outcome';
const AUTO = 'tracking.auto';

function store(): GoogleAppsScript.Properties.Properties {
  return PropertiesService.getDocumentProperties();
}

function readJson<T>(key: string): T | null {
  const text = store().getProperty(key);
  try {
    return text ? (JSON.parse(text) as T) : null;
  } catch {
    return null;
  }
}

export function saveRefreshOutcome(outcome: RefreshOutcome): void {
  store().setProperty(OUTCOME, JSON.stringify({ ...outcome, message: outcome.message.slice(0, 1000) }));
}

export function lastRefreshOutcome(): RefreshOutcome | null {
  return readJson<RefreshOutcome>(OUTCOME);
}

export function autoRefresh(): AutoRefresh | null {
  return readJson<AutoRefresh>(AUTO);
}

export function saveAutoRefresh(state: AutoRefresh): void {
  store().setProperty(AUTO, JSON.stringify(state));
}
