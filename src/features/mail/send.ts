// Menu: "Send e-mails to selected rows", and "Send to all unsent rows" (compose dialog). Every row is
// checked before any request; the confirmation states the mails to send, the rows skipped and why, the EDM
// cost and the usable EDM of both buckets; too little EDM is said before anything is sent. The work is the
// send job (send-job.ts) on the job runner: thousands of rows go on across executions in the progress dialog.
import { outreachClient } from '../clients';
import { Deadline } from '../../platform/deadline';
import { BUSY_MESSAGE, clearJob, withJobLease } from '../../platform/jobs';
import { loadTemplate } from './mail-templates';
import { CellValue } from '../../sheets/cells';
import { MAIL_STATUS } from '../../sheets/layouts';
import { ListRow, MailingList } from '../../sheets/mailing-list';
import { hiddenRows, selectedRows } from '../../sheets/selection';
import { confirm, inform } from '../../ui/dialogs';
import { showComposeDialog } from './compose';
import { UserError } from '../inputs';
import { newJobState, runStep, savedJob, startJob } from '../jobs/job-runner';
import { templateProblems } from './mail-template';
import { MENU_REPORTER } from '../jobs/reporters';
import { settleOpenChunks } from './send-chunk';
import { SEND_CHUNK, SEND_JOB, SendData, SendUnit, sendingSheet, writeIds } from './send-job';
import { isQueued, openMailingList, planSend, skippedLines } from './send-plan';
import { ensureKey } from '../settings';
import { count } from '../words';

type Scope = 'selected' | 'all';

export function sendSelectedRows(): void {
  sendRows('selected');
}

export function sendAllUnsentRows(): void {
  sendRows('all');
}

function sendRows(scope: Scope): void {
  if (!ensureKey('outreach')) return;
  withJobLease(
    SEND_JOB.kind,
    () => planAndSend(scope),
    () => inform('Send e-mails', BUSY_MESSAGE),
  );
}

function planAndSend(scope: Scope): void {
  if (resumeUnfinished()) return;
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const sheet = spreadsheet.getActiveSheet();
  const template = loadTemplate(sheet.getSheetId());
  if (!template) {
    showComposeDialog(`Write the mail for the sheet "${sheet.getName()}" first, then send.`);
    return;
  }
  const list = openMailingList(sheet);
  const problems = templateProblems(template, list.headers);
  if (problems.length) throw new UserError(`Fix the mail first (Compose e-mail…): ${problems.join(' ')}`);
  const client = outreachClient();
  settleOpenChunks(client, (chunk) => writeIds(list, chunk));

  const hidden = hiddenRows(sheet);
  const only = scope === 'selected' ? selectedRows(spreadsheet, sheet) : undefined;
  if (only && only.size === 0) throw new UserError('Select the rows to send to (row 1 holds the headers).');
  const rows = list.readRows();
  const candidates = rows.filter((row) => (!only || only.has(row.rowNumber)) && !hidden.has(row.rowNumber));
  const hiddenCount = only ? [...only].filter((r) => hidden.has(r)).length : hidden.size;
  const plan = planSend(template, candidates, rows, scope === 'selected');
  writeStatuses(list, plan.skipped);
  const lines = skippedLines(plan, hiddenCount);
  if (plan.rows.length === 0) {
    inform('Nothing to send', lines.join('\n') || 'There are no rows with an e-mail address to send to.');
    return;
  }
  const n = plan.rows.length;
  const balance = client.balance();
  const usable = balance.monthlyEdm + balance.addonEdm;
  lines.unshift(`Send ${count(n, 'e-mail')} from "${sheet.getName()}" (campaign "${template.campaign}").`);
  lines.push(
    `Cost: ${n} EDM (1 per e-mail).`,
    `Usable EDM: ${usable} (${balance.monthlyEdm} monthly + ${balance.addonEdm} add-on).`,
  );
  if (usable < n) {
    inform(
      'Not enough e-mail quota',
      `${lines.join('\n')}\n\nNothing was sent. Buy an add-on pack (2000 EDM) at ${client.pricingUrl}, or select fewer rows.`,
    );
    return;
  }
  if (!confirm('Send e-mails', `${lines.join('\n')}\n\nSend now?`)) return;
  queue(list, plan.rows);
  const data: SendData = {
    sheetId: sheet.getSheetId(),
    sheetName: sheet.getName(),
    campaign: template.campaign,
    templateSavedAt: template.savedAt,
    pricing: client.pricingUrl,
    sent: 0,
    notSent: 0,
    skipped: 0,
  };
  const units: SendUnit[] = [];
  for (let left = n; left > 0; left -= SEND_CHUNK) units.push({ n: Math.min(SEND_CHUNK, left) });
  startJob(SEND_JOB, newJobState(SEND_JOB, units, data), MENU_REPORTER);
}

/** An interrupted send is continued, or dropped with its queued rows released. True when continued. */
function resumeUnfinished(): boolean {
  const previous = savedJob<SendUnit, SendData>(SEND_JOB.kind);
  if (!previous || previous.stopped || previous.units.length === 0) return false;
  const left = previous.units.reduce((n, u) => n + u.n, 0);
  const question =
    `The last send from "${previous.data.sheetName}" was interrupted with ${count(left, 'e-mail')} left. ` +
    'Continue it now?\n\n(No: those rows are not sent and can be sent again later.)';
  if (confirm('Unfinished send', question)) {
    runStep(SEND_JOB, previous, MENU_REPORTER, Deadline.forExecution());
    return true;
  }
  try {
    const list = openMailingList(sendingSheet(previous.data));
    const release = new Map<number, string>();
    for (const row of list.readRows()) if (isQueued(row.status)) release.set(row.rowNumber, '');
    writeStatuses(list, release);
  } catch {
    // The sheet is gone: nothing to release.
  }
  clearJob(SEND_JOB.kind);
  return false;
}

function queue(list: MailingList, rows: ListRow[]): void {
  writeStatuses(list, new Map(rows.map((row) => [row.rowNumber, MAIL_STATUS.queued])));
}

/** One block write of "Mail status" for rows read in this execution. */
function writeStatuses(list: MailingList, statuses: Map<number, string>): void {
  const changes = new Map<number, Record<string, CellValue>>();
  for (const [row, status] of statuses) changes.set(row, { mailStatus: status });
  list.writeRows([], changes);
}
