// Long work (unlocking many rows, checking many numbers) runs in steps, one execution each, driven by the
// progress dialog. What a job still has to do is kept in document properties so any later execution (the
// next step, or the menu action run again) carries on; finished work is recorded in the sheet and in the
// stores as it happens, so a step that is cut off never redoes it.

export interface JobProgress {
  kind: string;
  done: number;
  total: number;
  finished: boolean;
  message: string;
  error?: string;
}

const PREFIX = 'job.';

export function loadJob<T>(kind: string): T | null {
  const text = PropertiesService.getDocumentProperties().getProperty(PREFIX + kind);
  if (!text) return null;
  try {
    return JSON.parse(text) as T;
  } catch {
    return null;
  }
}

export function saveJob(kind: string, state: unknown): void {
  PropertiesService.getDocumentProperties().setProperty(PREFIX + kind, JSON.stringify(state));
}

export function clearJob(kind: string): void {
  PropertiesService.getDocumentProperties().deleteProperty(PREFIX + kind);
}
