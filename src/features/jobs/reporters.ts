// Where a job's progress and outcome go. From a menu: toasts while it works, the progress dialog when it
// goes on past this execution, an alert when it stopped, a toast when it is done. From a time-driven
// trigger there is no UI (getUi() throws there): the outcome is kept in document properties, and the feature
// shows it where the user looks later (the Tracking sheet's summary, the menu action's confirmation).
import { JobKind, JobProgress, takeUnseenReport } from './job-store';
import { inform, showProgressDialog, toast } from '../../ui';
import type { JobDefinition, JobLabels, JobState, Reporter } from './job';

export const MENU_REPORTER: Reporter = {
  progress: (job: JobLabels, progress) => toast(progress.message, job.name, 3),
  end: (job: JobLabels, progress) => {
    if (progress.error)
      inform(`${job.name} ${progress.status === 'paused' ? 'paused' : 'stopped'}`, progressText(progress));
    else if (!progress.finished) showProgressDialog(job, progress);
    else toast(progress.message, `${job.name} finished`, 10);
  },
};

/**
 * At the start of a job's menu action: what a slice did in the background after its progress dialog was
 * closed, said once (before the action's own question or answer, which would otherwise seem to contradict
 * it: "142 rows were already unlocked").
 */
export function reportBackgroundWork(job: JobLabels): void {
  const report = takeUnseenReport(job.kind);
  if (report) inform(`${job.name}: what happened after the dialog closed`, report);
}

function progressText(progress: JobProgress): string {
  return progress.message && progress.message !== progress.error
    ? `${progress.message}\n\n${progress.error}`
    : progress.error || progress.message;
}

/** The outcome of the last unattended run of a job: when, what it did, and the error if any. */
export interface LastRun {
  at: number;
  message: string;
  error?: string;
  finished: boolean;
}

/** What runs unattended and keeps its last outcome: the jobs, the hourly follow-up steps and the reply scan. */
export type UnattendedWork = JobKind | 'sequence' | 'inbox';

const LAST_RUN = (kind: UnattendedWork) => `job.${kind}.lastRun`;

/** For triggers: never calls getUi(); the outcome is kept for the user to see later. */
export function unattendedReporter(kind: JobKind): Reporter {
  return {
    unattended: true,
    progress: () => undefined,
    end: (_title, progress) => recordLastRun(kind, progress),
  };
}

export function recordLastRun(
  kind: UnattendedWork,
  progress: { message: string; error?: string; finished: boolean },
): LastRun {
  const run: LastRun = { at: Date.now(), message: progress.message, finished: progress.finished };
  if (progress.error) run.error = progress.error;
  PropertiesService.getDocumentProperties().setProperty(LAST_RUN(kind), JSON.stringify(run));
  return run;
}

/** The last unattended run of `kind`; `properties`: the document properties, when the caller read them all. */
export function lastRun(kind: UnattendedWork, properties?: Record<string, string>): LastRun | null {
  const text = properties
    ? properties[LAST_RUN(kind)]
    : PropertiesService.getDocumentProperties().getProperty(LAST_RUN(kind));
  try {
    return text ? (JSON.parse(text) as LastRun) : null;
  } catch {
    return null;
  }
}

/** What a dialog's slice did, said as the next menu action will say it if the dialog was closed meanwhile. */
export function backgroundReport<U, D, R>(
  job: JobDefinition<U, D, R>,
  before: D,
  state: JobState<U, D>,
  progress: JobProgress,
): string {
  const did = job.workDone ? job.workDone(before, state.data) : '';
  if (!did) return '';
  const outcome =
    progress.status === 'user-stopped'
      ? progress.error
      : progress.error
        ? `Then it stopped: ${progress.error}`
        : progress.status === 'done'
          ? `The ${job.name.toLowerCase()} has finished.`
          : '';
  return `The run that was under way when the progress dialog closed went on in the background: it ${did}.${outcome ? ` ${outcome}` : ''}`;
}
