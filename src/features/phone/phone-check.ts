// Menu: Check phone numbers in selection: which numbers of the selected cells are registered on the
// messaging platform. Each distinct number is checked once and paid for once: results are kept per
// normalised number in the document (phone-results.ts), so a second run, a resumed run or
// =PHONE_CHECK never pays twice.
//   1. plan from the selection (phone-plan.ts): the columns of numbers, their results columns, the cells;
//   2. count cells, distinct numbers, known numbers (free) and checks needed; ask before inserting a
//      results column next to other data; ask the credits and confirm (offering to check as many as the
//      credits allow when they are short);
//   3. write what is known, blank the cells of the numbers to check, and start the phone job
//      (phone-job.ts) on the job runner: the progress dialog's slices (continueJob('phone')) go on with it.
// Running the action again on the same selection resumes an unfinished check (or says when a paused one
// may go on).
import { phoneClient } from '../clients';
import { Deadline } from '../../platform';
import {
  BUSY_MESSAGE,
  clearJob,
  saveJob,
  withJobLease,
  JobState,
  pausedUntil,
  newJobState,
  runSlice,
  savedJob,
  startJob,
  MENU_REPORTER,
  reportBackgroundWork,
} from '../jobs';
import { ApiError } from '../../api';
import { dailyQuotaPause, fetchQuotaError } from './phone-quota';
import { PhoneResults } from './phone-results';
import { activeSelection, hiddenRows, Selection, HeaderMovedError, TableRow } from '../../sheets';
import { confirm, inform, toast } from '../../ui';
import { PHONE_JOB, PhoneData, PhoneUnit } from './phone-job';
import {
  ColumnPlan,
  Entry,
  NO_NUMBERS,
  phoneUnits,
  PhoneTarget,
  planColumns,
  rowSpan,
  survey,
  Survey,
} from './phone-plan';
import {
  applyColumnPlan,
  currentColumns,
  phoneTable,
  readSelectionGrid,
  targetOf,
  writeBefore,
} from './phone-sheet';
import { costQuestion, insertQuestion, parseResultCell, type ResultCell } from './phone-texts';
import { ensureKey } from '../settings';
import { describe } from '../errors';

const TITLE = 'Check phone numbers';

type Saved = JobState<PhoneUnit, PhoneData>;

/** What the selection holds, before anything is asked or written. */
interface Prepared {
  sheet: GoogleAppsScript.Spreadsheet.Sheet;
  target: PhoneTarget;
  /** Results columns to insert and head; null when resuming (they are there). */
  plan: ColumnPlan | null;
  /** The rows as read, before any insert. */
  rows: TableRow[];
  survey: Survey;
  /** Resuming: the answers the interrupted check already wrote (kept even if the store dropped them). */
  shown: Map<string, ResultCell>;
}

/** Menu: Check phone numbers in selection. One run at a time per document (see withJobLease). */
export function checkSelectedPhones(): void {
  if (!ensureKey('phone')) return;
  withJobLease(PHONE_JOB.kind, checkSelection, () => inform(TITLE, BUSY_MESSAGE));
}

function checkSelection(): void {
  const deadline = Deadline.forExecution();
  reportBackgroundWork(PHONE_JOB);
  const selection = activeSelection(SpreadsheetApp.getActiveSpreadsheet());
  if (!selection) return inform(TITLE, 'Select the cells with the phone numbers first.');
  const previous = savedJob<PhoneUnit, PhoneData>(PHONE_JOB.kind);
  const same = previous && isSameSelection(previous.data, selection) ? previous : null;
  if (same && Date.now() < pausedUntil(same)) {
    runSlice(PHONE_JOB, same, MENU_REPORTER, deadline); // says when it may go on
    return;
  }
  const prepared = (same && resume(selection, same.data)) || prepare(selection);
  if ('problem' in prepared) return inform(TITLE, prepared.problem);
  if (prepared.survey.entries.length === 0) return inform(TITLE, NO_NUMBERS);
  if (prepared.plan && prepared.plan.ask.length > 0) {
    const question = insertQuestion(prepared.plan.ask);
    if (!confirm(question.title, question.text)) {
      toast('Nothing was checked and nothing was changed.', 'Phone check');
      return;
    }
  }
  const store = PhoneResults.load();
  const distinct = [...prepared.survey.distinct];
  const unknown = distinct.filter((phone) => !store.get(phone) && !prepared.shown.has(phone));
  let limit = 0;
  if (unknown.length > 0) {
    const dropped = prepared.plan ? previous : null; // another selection's check, replaced by this one
    const answer = askCost(prepared, distinct.length - unknown.length, unknown.length, dropped, deadline);
    if (answer === 'daily-quota') return same ? waitForDailyQuota(same) : undefined;
    if (answer === null) return;
    limit = answer;
  }
  start(prepared, store, unknown, limit, previous, deadline, distinct.length - unknown.length);
}

function isSameSelection(target: PhoneTarget, selection: Selection): boolean {
  return target.sheetName === selection.sheetName && target.selection.includes(selection.a1);
}

/** A fresh plan: one read to find the columns, one to read the cells. */
function prepare(selection: Selection): Prepared | { problem: string } {
  const sheet = selection.sheet;
  const grid = readSelectionGrid(sheet, selection.areas);
  const hidden = hiddenRows(sheet, rowSpan(selection.areas, grid.lastRow)[1]);
  const plan = planColumns(grid, hidden);
  if ('problem' in plan) return plan;
  const target = targetOf(plan, selection);
  const rows = phoneTable(sheet, currentColumns(plan), plan.lastRow, false).readAll();
  return { sheet, target, plan, rows, survey: survey(rows, target, hidden), shown: new Map() };
}

/** The unfinished check of this selection, read again; null when its results columns have moved. */
function resume(selection: Selection, saved: PhoneTarget): Prepared | null {
  const { sheetName, firstRow, lastRow, columns } = saved;
  const target: PhoneTarget = { sheetName, selection: saved.selection, firstRow, lastRow, columns };
  const sheet = selection.sheet;
  let rows: TableRow[];
  try {
    rows = phoneTable(sheet, columns, lastRow, true).readAll();
  } catch (error) {
    if (error instanceof HeaderMovedError) return null; // planned afresh
    throw error;
  }
  const found = survey(rows, target, hiddenRows(sheet, lastRow));
  const shown = new Map<string, ResultCell>();
  for (const entry of found.entries) {
    const cell = entry.phone ? parseResultCell(entry.shown) : null;
    if (cell && cell.kind === 'answer') shown.set(entry.phone!, cell);
  }
  return { sheet, target, plan: null, rows, survey: found, shown };
}

/** States the cost and the credits; how many numbers to check, or null when the user declined. */
function askCost(
  prepared: Prepared,
  known: number,
  checks: number,
  dropped: Saved | null,
  deadline: Deadline,
): number | null | 'daily-quota' {
  let credits: number;
  try {
    credits = phoneClient({ deadlineMs: deadline.at }).credits();
  } catch (error) {
    const daily = error instanceof ApiError && error.kind === 'fetch-quota';
    if (daily && !prepared.plan) return 'daily-quota'; // resuming: the started check waits for it
    inform('Phone check', `Could not read your credits. ${describe(error)}`);
    return null;
  }
  const { entries, distinct, invalidCells } = prepared.survey;
  const question = costQuestion({
    cells: entries.length,
    distinct: distinct.size,
    invalidCells,
    known,
    checks,
    credits,
    resuming: !prepared.plan,
    dropped: dropped ? `${dropped.data.sheetName}!${dropped.data.selection[0]}` : null,
  });
  if (question.limit === 0) {
    inform(question.title, question.text);
    return null;
  }
  return confirm(question.title, question.text) ? question.limit : null;
}

/** Google's daily fetch limit met before the resumed check could go on: the hourly trigger takes it over. */
function waitForDailyQuota(job: Saved): void {
  const pause = dailyQuotaPause(fetchQuotaError(), job.data, job.units.flat());
  job.status = { is: 'paused', until: pause.until, message: pause.message };
  saveJob(PHONE_JOB.kind, job);
  inform('Phone check paused', pause.message);
}

/** Inserts the results columns, writes what is known, and runs the job's first slice. */
function start(
  prepared: Prepared,
  store: PhoneResults,
  unknown: string[],
  limit: number,
  previous: Saved | null,
  deadline: Deadline,
  known: number,
): void {
  const { sheet, target, plan } = prepared;
  if (plan) applyColumnPlan(sheet, plan);
  const table = phoneTable(sheet, target.columns, target.lastRow, true);
  const rows = plan && plan.inserts.length > 0 ? table.readAll() : prepared.rows;
  writeBefore(table, rows, target, (entry) => cellBefore(entry, store, prepared.shown));
  if (previous) clearJob(PHONE_JOB.kind);
  const data: PhoneData = { ...target, charged: 0, done: 0, leftOut: unknown.length - limit, known };
  const state = newJobState(PHONE_JOB, phoneUnits(unknown, limit), data);
  if (state.units.length > 0) startJob(PHONE_JOB, state, MENU_REPORTER, deadline);
  else runSlice(PHONE_JOB, state, MENU_REPORTER, deadline); // all known: written above, says so
}

/** A cell before the first check: its known answer, or blank (null) while its number waits (never stale). */
function cellBefore(entry: Entry, store: PhoneResults, shown: Map<string, ResultCell>): ResultCell | null {
  if (entry.invalid !== undefined) return { kind: 'refused', reason: entry.invalid };
  const phone = entry.phone!;
  const known = store.get(phone);
  if (known) return { kind: 'answer', status: known.status };
  return shown.get(phone) || null;
}
