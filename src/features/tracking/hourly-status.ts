// What the Tracking summary says about the hourly work of every user of the document: whose auto-refresh is
// on (each user's own switch), an hourly run that needs re-authorization, the sends scheduled for later and
// a send waiting for the sending quota, and each running follow-up sequence. A trigger has no UI and its failures are mailed to nobody: this is
// where its user sees them.
import { type ScopeName, count } from '../../platform';
import { loadJob, otherJobs, lastRun, allHourlyTriggers } from '../jobs';
import { consentText } from '../errors';
import { allSchedules, whyCannotRun, startWindowText, allSequences, testSummary } from '../outbox';
import { whenText } from '../words';
import { sequenceSummary } from '../sequence';

/** The part of a saved send job this status reads (mail/send-job.ts owns the type). */
interface WaitingJob {
  units?: { n: number }[];
  data?: { sheetName?: string; waiting?: { since: number; detail: string } };
}

interface HourlyStatus {
  autoRefresh: string;
  /** Some editor has auto-refresh on. */
  autoOn: boolean;
  waitingAndScheduled: string;
}

export function hourlyStatus(zone: string): HourlyStatus {
  const properties = PropertiesService.getDocumentProperties().getProperties();
  const time = (ms: number) => whenText(ms, zone);
  return {
    autoRefresh: autoRefreshText(properties, time),
    autoOn: allHourlyTriggers(properties).some((r) => !!r.auto && r.auto.on),
    waitingAndScheduled: waitingAndScheduledText(properties, zone, time),
  };
}

function autoRefreshText(properties: Record<string, string>, time: (ms: number) => string): string {
  const records = allHourlyTriggers(properties);
  const on = records.filter((r) => r.auto && r.auto.on);
  let text = 'Off (Extensions › Outreach › Auto-refresh tracking: on / off; each editor has their own).';
  if (on.length) {
    const since = Math.min(...on.map((r) => (r.auto ? r.auto.since : Date.now())));
    text =
      `On for ${count(on.length, 'editor')} of this document (each editor's own switch), ` +
      `since ${time(since)}: about every hour; it turns itself off when every mail is final and 14 days have passed since the last send (opens are counted until then), after 30 days, or if the API key is refused; never while that editor has a send scheduled or waiting.`;
  } else {
    const off = records
      .map((r) => r.auto)
      .filter((a) => a && a.offAt)
      .sort((a, b) => (b && b.offAt ? b.offAt : 0) - (a && a.offAt ? a.offAt : 0))[0];
    if (off && off.offAt) text = `Off since ${time(off.offAt)}: ${off.offReason || ''}`;
  }
  const reauth = records.filter((r) => r.reauthAt && !(r.missing && r.missing.length));
  if (reauth.length) {
    text += ` Needs re-authorization since ${time(Math.min(...reauth.map((r) => r.reauthAt as number)))}: the hourly run of an editor did nothing because the add-on needs that editor's permission again. That editor opens Extensions › Outreach in this spreadsheet and picks any item to grant it.`;
  }
  for (const r of records.filter((r) => r.reauthAt && r.missing && r.missing.length)) {
    const missing = (r.missing || []) as ScopeName[];
    text += ` Since ${time(r.reauthAt as number)} the hourly run of an editor did nothing: ${consentText('It', missing)}`;
  }
  return text;
}

function waitingAndScheduledText(
  properties: Record<string, string>,
  zone: string,
  time: (ms: number) => string,
): string {
  const parts = allSchedules(properties).map((s) => {
    const why = whyCannotRun(s, zone);
    const cannot = why
      ? ` It cannot run: ${why}; any editor may cancel it (Cancel a waiting or scheduled send).`
      : '';
    return `"${s.sheetName}" is scheduled to start ${startWindowText(s.at, zone)}.${cannot}`;
  });
  // Every editor's waiting send (each has their own): the summary is the document's.
  const jobs = [loadJob<WaitingJob>('send', properties), ...otherJobs<WaitingJob>('send', properties)];
  for (const job of jobs) {
    if (!job || !job.data || !job.data.waiting) continue;
    const left = (job.units || []).reduce((n, u) => n + u.n, 0);
    parts.push(
      `"${job.data.sheetName}": ${count(left, 'e-mail')} wait for the sending quota since ${time(job.data.waiting.since)} (${job.data.waiting.detail}); tried every hour for 7 days.`,
    );
  }
  const run = lastRun('send', properties);
  if (run)
    parts.push(
      `Last waiting or scheduled send ${time(run.at)}: ${[run.message, run.error].filter(Boolean).join(' ')}`,
    );
  parts.push(...sequenceSummary(allSequences(properties), time));
  parts.push(...testSummary(properties, time));
  const steps = lastRun('sequence', properties);
  if (steps)
    parts.push(
      `Last follow-up run ${time(steps.at)}: ${[steps.message, steps.error].filter(Boolean).join(' ')}`,
    );
  return parts.join(' ') || 'None (Compose e-mail… › Schedule).';
}
