// What tracking keeps between executions, in document properties (every editor's executions and the
// hourly triggers see the same): the outcome of the last refresh. Which mails are final is on the Tracking
// sheet, not here: nothing kept grows with the mails sent. Each user's auto-refresh switch is in schedule/.

export type RefreshOrigin = 'menu' | 'hourly';

/** How the last refresh ended (the runner clears the job's state when it ends, so this is kept apart). */
export interface RefreshOutcome {
  at: number;
  origin: RefreshOrigin;
  message: string;
  error?: string;
  /** ApiError kind that stopped it ('auth', 'missing-key', …). */
  stopKind?: string;
  /** Every task and every mail tracked is final: no status will change (a task's opens still can). */
  allFinal?: boolean;
}

const OUTCOME = 'tracking.outcome';

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
