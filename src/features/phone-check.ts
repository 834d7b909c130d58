// "Check phone numbers in selection": which numbers of the selected cells are registered on the messaging
// platform. Each distinct number is checked once and paid for once: results are kept per normalised number
// in the document (platform/phone-results.ts), so a second run, a resumed run or =PHONE_CHECK never pays twice.
//
// Flow of the menu action:
//   1. read the selection (any shape; row 1 is the header row and is never checked), skip blanks and rows
//      hidden by a filter; a selected column counts as a column of numbers when one of its cells looks
//      like a phone number (digits and separators, or a number);
//   2. plan the results columns: the column right of each column of numbers, reused when its header is
//      RESULT_HEADER, taken when it is empty, and otherwise a new column is inserted there (after asking);
//   3. count cells, distinct numbers, known numbers (free) and checks needed, ask the credits, confirm
//      (offering to check as many as the credits allow when they are short);
//   4. check in chunks (fetchAll through the client), after each chunk write the store, then the results
//      cells (one setValues per results column per chunk), then a progress toast;
//   5. at Deadline.forExecution() save the job and open the progress dialog; its steps (continueJob('phone'))
//      go on from what is left. Running the menu action again on the same selection also resumes.
// 1004 (no credits) and 1001/1003 (key) stop the run with what to do; cells of unchecked numbers are left
// blank (never stale). 1005: the client waits within the hourly budget; when the wait is longer than the
// execution, the job is kept and the user is told when to continue.
import { ApiError, phoneClientFromSettings, type PhoneCheckManyResult, PhoneClient } from '../api';
import { Deadline } from '../platform/deadline';
import { BUSY_MESSAGE, clearJob, JobProgress, loadJob, saveJob, withJobLease } from '../platform/jobs';
import { CellValue, textCell } from '../sheets/cells';
import { normalizeHeader } from '../sheets/table';
import { confirm, inform, showProgressDialog, toast } from '../ui/dialogs';
import { cellPhone, invalidNumberText } from './phone-functions';
import { describe, ensureKey } from './settings';
import { PhoneResults, PhoneStatus, RECHECK_AFTER_DAYS } from '../platform/phone-results';

export const JOB_KIND = 'phone';
/** Header of a results column; a column with this header right of the numbers is reused. */
export const RESULT_HEADER = 'Phone check';
export const RESULT_TEXT: Record<PhoneStatus, string> = {
  registered: 'registered',
  'not-registered': 'not registered',
  invalid: 'invalid number',
};
const RESULTS = Object.values(RESULT_TEXT);
/** Numbers per chunk: results are stored and written after each chunk. */
export const CHUNK_SIZE = 50;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

interface PlanColumn {
  /** 1-based sheet column of the numbers. */
  source: number;
  /** 1-based sheet column of the results (source + 1). */
  result: number;
  /** Rows [first, last] selected in this column when the selection has several areas (else all). */
  rows?: Array<[number, number]>;
}

export interface PhoneJob {
  v: 1;
  sheetName: string;
  /** A1 notations that identify the selection (as selected, and after columns were inserted). */
  selection: string[];
  firstRow: number;
  lastRow: number;
  columns: PlanColumn[];
  /** Checks this job may still pay for (credits were short), or null for no limit. */
  budget: number | null;
  /** Distinct numbers to check when the job started, and how many have an answer since. */
  total: number;
  /** Distinct numbers already known when the job started (free). */
  known?: number;
  done: number;
  /** Checks paid for by this job. */
  charged: number;
  /** Numbers that failed in this job after the client's retries: not tried again by this job. */
  failed: string[];
  /** Set when the hourly rate budget is used up: no step before this time. */
  resumeAt?: number;
  /** The first pass has written the results column: a result shown there is this job's. */
  started?: boolean;
}

/** One cell of the selection holding something. */
interface Entry {
  column: number; // index in job.columns
  offset: number; // row - firstRow
  phone?: string;
  invalid?: string;
}

interface Survey {
  entries: Entry[];
  /** Distinct valid numbers in order of first appearance. */
  distinct: Set<string>;
  invalidCells: number;
}

// ── Menu action ───────────────────────────────────────────────────────────────────────────────────────

/** Menu: Check phone numbers in selection. One run at a time per document (see withJobLease). */
export function checkSelectedPhones(): void {
  if (!ensureKey('phone')) return;
  withJobLease(JOB_KIND, checkSelection, () => {
    inform('Check phone numbers', BUSY_MESSAGE);
  });
}

function checkSelection(): void {
  const deadline = Deadline.forExecution();
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  // A selection of several areas (Ctrl-click) is checked as a whole.
  const list = spreadsheet.getActiveRangeList();
  const ranges = list ? list.getRanges() : [];
  if (ranges.length === 0) {
    inform('Check phone numbers', 'Select the cells with the phone numbers first.');
    return;
  }
  const sheet = ranges[0].getSheet();
  const a1 = ranges.map((r) => r.getA1Notation()).join(',');
  const previous = loadJob<PhoneJob>(JOB_KIND);
  const resuming =
    !!previous &&
    previous.v === 1 &&
    previous.sheetName === sheet.getName() &&
    previous.selection.includes(a1);

  if (resuming && previous!.resumeAt && Date.now() < previous!.resumeAt) {
    inform('Phone check paused', rateLimitedProgress(previous!).message);
    return;
  }
  const plan: Plan | { problem: string } = resuming
    ? {
        job: { ...previous!, failed: [], resumeAt: undefined },
        inserts: [],
        ask: [],
        headers: [],
        hidden: hiddenRows(sheet, previous!.firstRow, previous!.lastRow),
      }
    : planSelection(sheet, ranges, a1);
  if ('problem' in plan) {
    inform('Check phone numbers', plan.problem);
    return;
  }
  const { job, inserts, ask, headers, hidden } = plan;

  // What it costs.
  const block = readBlock(sheet, job);
  const survey = surveyBlock(job, block, hidden);
  const store = PhoneResults.load();
  const unknown = [...survey.distinct].filter((phone) => !store.get(phone));
  const known = survey.distinct.size - unknown.length;
  if (survey.entries.length === 0) {
    inform(
      'Check phone numbers',
      'There are no phone numbers in the selected cells (row 1 is the header row).',
    );
    return;
  }

  // Ask before inserting columns next to unrelated data.
  if (ask.length > 0) {
    const names = ask.map((c) => columnName(c + 1)).join(', ');
    const question =
      `Column ${names} next to the phone numbers holds other data.\n\n` +
      `Insert a new "${RESULT_HEADER}" column for the results? Nothing is overwritten.`;
    if (!confirm('Insert a results column?', question)) {
      toast('Nothing was checked and nothing was changed.', 'Phone check');
      return;
    }
  }

  let budget: number | null = null;
  if (unknown.length > 0) {
    let credits: number;
    try {
      credits = phoneClientFromSettings({ deadlineMs: deadline.at }).credits();
    } catch (error) {
      inform('Phone check', `Could not read your credits. ${describe(error)}`);
      return;
    }
    const lines = [
      `${count(survey.entries.length, 'cell')} with ${count(survey.distinct.size, 'distinct number')}` +
        (survey.invalidCells > 0 ? ` (${count(survey.invalidCells, 'cell')} not valid: not checked).` : '.'),
      `${known} already known from earlier checks (free).`,
      `${count(unknown.length, 'check')} needed: ${count(unknown.length, 'credit')} (1 per check).`,
      `Credits left: ${credits}.`,
    ];
    if (resuming) lines.unshift('Resuming the unfinished check of this selection.');
    else if (previous)
      lines.push(
        `(An unfinished check of ${previous.sheetName}!${previous.selection[0]} is dropped; its results are kept.)`,
      );
    if (credits <= 0) {
      inform(
        'No phone-check credits',
        `${lines.join('\n')}\n\nAdd credits to the phone-check account, then run the check again.`,
      );
      return;
    }
    if (credits < unknown.length) {
      lines.push(
        '',
        `Not enough credits: check the first ${count(credits, 'number')} now (the others stay blank)?`,
      );
      if (!confirm('Not enough credits', lines.join('\n'))) return;
      budget = credits;
    } else {
      lines.push('', `Check ${count(unknown.length, 'number')} now?`);
      if (!confirm('Check phone numbers', lines.join('\n'))) return;
    }
  }

  // Apply the plan: inserts from right to left so that the planned positions stay right, then headers.
  for (const column of [...inserts].sort((a, b) => b - a)) sheet.insertColumnAfter(column);
  for (const column of headers) {
    const cell = sheet.getRange(1, column);
    cell.setValue(RESULT_HEADER);
    cell.setFontWeight('bold');
    if (inserts.length === 0) block[0][column - minColumn(job)] = RESULT_HEADER; // what was read stays true
  }
  job.budget = budget;
  job.total = unknown.length;
  job.known = known;
  job.done = 0;
  job.charged = 0;
  if (previous && !resuming) clearJob(JOB_KIND);

  const progress = runJob(job, deadline, { sheet, block: inserts.length > 0 ? null : block, hidden });
  finishExecution(job, progress, true);
}

// ── Progress dialog step ──────────────────────────────────────────────────────────────────────────────

export function continuePhoneJob(): JobProgress {
  const job = loadJob<PhoneJob>(JOB_KIND);
  if (!job || job.v !== 1) {
    return { kind: JOB_KIND, done: 0, total: 0, finished: true, message: 'No phone check is running.' };
  }
  if (job.resumeAt && Date.now() < job.resumeAt) {
    return rateLimitedProgress(job);
  }
  const progress = runJob(job, Deadline.forExecution());
  return finishExecution(job, progress, false);
}

// ── The work ──────────────────────────────────────────────────────────────────────────────────────────

interface RunState {
  finished: boolean;
  /** Stop with this message (alert in the menu, dialog error in steps). */
  error?: string;
  message: string;
}

const stop = (error: string, message = ''): RunState => ({ finished: true, error, message });

/**
 * Checks until done, stopped or out of time; the caller saves or clears the job. Each round reads the
 * block, writes what is known into the results cells next to the numbers the rows hold *now* (the user may
 * sort, insert or delete rows while a chunk is on the wire or the run waits for the rate limit), then
 * claims and checks the next chunk of numbers nobody knows yet and stores the results.
 */
function runJob(
  job: PhoneJob,
  deadline: Deadline,
  known?: { sheet: Sheet; block: CellValue[][] | null; hidden: Set<number> },
): RunState {
  const sheet = known ? known.sheet : SpreadsheetApp.getActiveSpreadsheet().getSheetByName(job.sheetName);
  if (!sheet)
    return stop(`The sheet "${job.sheetName}" is gone: select the numbers and run the check again.`);
  // Rows hidden by the filter are looked up in each execution: they change, and a list of them may not fit
  // in the job's property.
  const hidden = known ? known.hidden : hiddenRows(sheet, job.firstRow, job.lastRow);
  const store = PhoneResults.load();
  const first = minColumn(job);
  const failed = new Set(job.failed);
  /** What this execution found (results and errors), until written: the store may drop entries. */
  const answers = new Map<string, string>();
  let client: PhoneClient | null = null;
  let chunkMs = 5000; // a chunk starts only when one as long as the last one ends before the deadline
  let block = known && known.block;
  let ended: RunState | null = null;
  for (;;) {
    block = block || readBlock(sheet, job);
    const moved = job.columns.find(
      (c) => normalizeHeader(block![0][c.result - first]) !== normalizeHeader(RESULT_HEADER),
    );
    if (moved) {
      return stop(
        `The "${RESULT_HEADER}" column right of column ${columnName(moved.source)} has moved: select the numbers and run the check again (checked numbers are not paid twice).`,
        summaryText(job),
      );
    }
    // Results grid of each results column (rows firstRow..lastRow), starting from what the cells hold.
    const grids = job.columns.map((c) => block!.slice(1).map((row) => row[c.result - first]));
    const changed = job.columns.map(() => new Set<number>());
    const queue = new Set<string>();
    const entries = surveyBlock(job, block, hidden).entries;
    // A result this job wrote stays its answer even when the store had to drop it (a full store drops its
    // oldest entries): the job never pays twice for a number. Its first pass clears what older runs left.
    const shown = new Map<string, string>();
    for (const { phone, column, offset } of job.started ? entries : []) {
      const value = grids[column][offset];
      if (phone && typeof value === 'string' && RESULTS.includes(value)) shown.set(phone, value);
    }
    for (const entry of entries) {
      let text: string | undefined;
      if (entry.invalid !== undefined) text = invalidNumberText(entry.invalid);
      else {
        const phone = entry.phone!;
        const stored = store.get(phone);
        text = stored ? RESULT_TEXT[stored.status] : answers.get(phone) || shown.get(phone);
        if (text === undefined && !failed.has(phone)) {
          text = ''; // no stale data while the number waits for its check
          queue.add(phone);
        }
      }
      if (text !== undefined && !sameValue(grids[entry.column][entry.offset], text)) {
        grids[entry.column][entry.offset] = text;
        changed[entry.column].add(entry.offset);
      }
    }
    writeChanges(sheet, job, grids, changed);
    job.started = true;
    block = null;
    if (ended) return ended;
    if (queue.size === 0) return { finished: true, message: summaryText(job) };
    if (deadline.passed(chunkMs)) return { finished: false, message: progressText(job) };
    const allowed = job.budget === null ? CHUNK_SIZE : Math.min(CHUNK_SIZE, job.budget);
    if (allowed <= 0) {
      return {
        finished: true,
        message: `${summaryText(job)} ${count(queue.size, 'number')} not checked: the credits were used up (add credits and run the check again).`,
      };
    }
    // Numbers claimed by another execution (=PHONE_CHECK, another editor) are its to pay for: wait.
    const chunk = store.claim([...queue], allowed);
    if (chunk.length === 0) {
      if ([...queue].some((phone) => !store.get(phone))) Utilities.sleep(5000);
      continue;
    }
    let outcome: PhoneCheckManyResult;
    const started = Date.now();
    try {
      client = client || phoneClientFromSettings({ deadlineMs: deadline.at });
      outcome = client.checkMany(chunk);
      chunkMs = Math.max(5000, Date.now() - started);
    } catch (error) {
      store.save(); // releases the claims
      return stop(`The phone check stopped. ${describe(error)}`, summaryText(job));
    }
    for (const result of outcome.results) {
      const phone = chunk[result.index];
      if (result.status === 'error') {
        failed.add(phone);
        job.failed.push(phone);
        answers.set(phone, `error: ${result.error ? result.error.userMessage : 'the check failed'}`);
      } else {
        store.put(phone, result.status);
        answers.set(phone, RESULT_TEXT[result.status]);
        if (result.status !== 'invalid') {
          job.charged++;
          if (job.budget !== null) job.budget--;
        }
      }
    }
    job.done += outcome.results.length;
    // The store first, then the sheet (next round): a cut-off in between never loses a paid result.
    try {
      store.save();
    } catch (error) {
      // Kept in memory: the next round writes them into the sheet, then the run stops.
      ended = stop(
        `The results could not be kept in this document (${describe(error)}); the ones checked so far are in the sheet. ${summaryText(job)}`,
        summaryText(job),
      );
      continue;
    }
    toast(progressText(job), 'Phone check', 3);
    if (outcome.stopped)
      ended = stopVerdict(job, outcome.stopped, deadline, queue.size - outcome.results.length);
  }
}

/** What a stop of checkMany means: null to go on (the wait fits in this execution). */
function stopVerdict(job: PhoneJob, stopped: ApiError, deadline: Deadline, left: number): RunState | null {
  const notChecked = `${count(left, 'number')} not checked (their cells are blank).`;
  const summary = summaryText(job);
  if (stopped.kind === 'funds') {
    return stop(`No phone-check credits left: ${summary} ${notChecked} ${stopped.action}`, summary);
  }
  if (stopped.kind === 'auth' || stopped.kind === 'missing-key') {
    return stop(`${stopped.userMessage} ${stopped.action} ${summary} ${notChecked}`, summary);
  }
  // rate-limit: out of time (go on in the next step), or a wait: within this execution if it fits, else the
  // job is paused and the user told when to go on (the progress dialog must not spin on a closed budget).
  if (deadline.passed(5000)) return { finished: false, message: progressText(job) };
  const wait = stopped.retryAfterMs && stopped.retryAfterMs > 0 ? stopped.retryAfterMs : 60_000;
  if (Date.now() + wait < deadline.at - 5000) {
    Utilities.sleep(wait);
    return null;
  }
  job.resumeAt = Date.now() + wait;
  return rateLimitedProgress(job);
}

/** The hourly budget is used up: the job is kept, the user is told when to continue. */
function rateLimitedProgress(job: PhoneJob): RunState & JobProgress {
  const at = Utilities.formatDate(new Date(job.resumeAt || Date.now()), Session.getScriptTimeZone(), 'HH:mm');
  const message =
    `${progressText(job)} The phone-check service's limit of 1000 checks per hour is reached: ` +
    `run "Check phone numbers in selection" again on the same cells after ${at} to check the rest (nothing is checked twice).`;
  return { kind: JOB_KIND, done: job.done, total: job.total, finished: true, message, error: message };
}

/** Saves or clears the job and tells the user; returns the dialog's progress. */
function finishExecution(job: PhoneJob, state: RunState, fromMenu: boolean): JobProgress {
  const progress: JobProgress = {
    kind: JOB_KIND,
    done: job.done,
    total: job.total,
    finished: state.finished,
    message: state.message || progressText(job),
  };
  if (state.error) progress.error = state.error;
  if (state.finished && !job.resumeAt) clearJob(JOB_KIND);
  else saveJob(JOB_KIND, compactJob(job));
  if (fromMenu) {
    if (state.error) inform(job.resumeAt ? 'Phone check paused' : 'Phone check stopped', state.error);
    else if (!state.finished) showProgressDialog('Checking phone numbers', progress);
    else toast(progress.message, 'Phone check', 8);
  }
  return progress;
}

/** Document properties hold 9 KB per value: the failed list is shortened (retried) if it would not fit. */
function compactJob(job: PhoneJob): PhoneJob {
  const copy = { ...job };
  while (JSON.stringify(copy).length > 8500 && copy.failed.length > 0) {
    copy.failed = copy.failed.slice(0, Math.floor(copy.failed.length / 2));
  }
  return copy;
}

// ── Planning ──────────────────────────────────────────────────────────────────────────────────────────

interface Plan {
  job: PhoneJob;
  /** Columns to insert a results column after (ask first about those before unrelated data). */
  inserts: number[];
  ask: number[];
  /** Columns to give the results header (positions after the inserts). */
  headers: number[];
  hidden: Set<number>;
}

function planSelection(
  sheet: Sheet,
  ranges: GoogleAppsScript.Spreadsheet.Range[],
  a1: string,
): Plan | { problem: string } {
  const areas = ranges.map((r) => ({
    row: r.getRow(),
    rows: r.getNumRows(),
    col: r.getColumn(),
    cols: r.getNumColumns(),
  }));
  const selFirstColumn = Math.min(...areas.map((a) => a.col));
  const selLastColumn = Math.max(...areas.map((a) => a.col + a.cols - 1));
  const sheetLastRow = sheet.getLastRow();
  const firstRow = Math.max(Math.min(...areas.map((a) => a.row)), 2);
  const lastRow = Math.min(Math.max(...areas.map((a) => a.row + a.rows - 1)), sheetLastRow);
  if (firstRow > lastRow) {
    return { problem: 'Select the cells with the phone numbers (below the header row) first.' };
  }
  const maxColumns = sheet.getMaxColumns();
  const lastColumn = Math.min(selLastColumn + 1, maxColumns);
  // One read: the header row, the selected columns and the column right of them, down to the last row.
  const grid = sheet.getRange(1, selFirstColumn, sheetLastRow, lastColumn - selFirstColumn + 1).getValues();
  const at = (row: number, column: number): unknown => {
    const line = grid[row - 1];
    return line ? line[column - selFirstColumn] : '';
  };
  const hidden = hiddenRows(sheet, firstRow, lastRow);
  const ours = (column: number) =>
    column <= lastColumn && normalizeHeader(at(1, column)) === normalizeHeader(RESULT_HEADER);

  // The selected rows of a column: those of the areas that cover it.
  const rowsOf = (column: number) =>
    areas
      .filter((a) => a.col <= column && column < a.col + a.cols)
      .map((a): [number, number] => [Math.max(a.row, firstRow), Math.min(a.row + a.rows - 1, lastRow)]);
  const sources: number[] = [];
  for (let column = selFirstColumn; column <= selLastColumn; column++) {
    if (ours(column)) continue;
    const found = rowsOf(column).some(([from, to]) => {
      for (let row = from; row <= to; row++)
        if (!hidden.has(row) && looksLikePhone(at(row, column))) return true;
      return false;
    });
    if (found) sources.push(column);
  }
  if (sources.length === 0) {
    return { problem: 'There are no phone numbers in the selected cells (row 1 is the header row).' };
  }
  const inserts: number[] = [];
  const headerAt: number[] = [];
  for (const column of sources) {
    const right = column + 1;
    if (right > maxColumns) {
      inserts.push(column); // the sheet ends here: a new, empty column (nothing to ask)
      headerAt.push(column);
    } else if (ours(right)) {
      continue;
    } else if (!sources.includes(right) && columnIsEmpty(grid, right - selFirstColumn)) {
      headerAt.push(column);
    } else {
      inserts.push(column);
      headerAt.push(column);
    }
  }
  // Positions after the inserts (each insert shifts the columns right of it by one).
  const shift = (column: number) => inserts.filter((c) => c < column).length;
  const columns: PlanColumn[] = sources.map((source) => ({
    source: source + shift(source),
    result: source + shift(source) + 1,
    ...(areas.length > 1 && { rows: rowsOf(source) }),
  }));
  const headers = headerAt.map((source) => source + shift(source) + 1);
  const selection = [a1];
  if (inserts.length > 0) {
    const shifted = areas.map((a) => {
      const from = a.col + shift(a.col);
      return sheet.getRange(a.row, from, a.rows, a.col + a.cols - 1 + shift(a.col + a.cols - 1) - from + 1);
    });
    selection.push(shifted.map((r) => r.getA1Notation()).join(','));
  }
  const job: PhoneJob = {
    v: 1,
    sheetName: sheet.getName(),
    selection,
    firstRow,
    lastRow,
    columns,
    budget: null,
    total: 0,
    done: 0,
    charged: 0,
    failed: [],
  };
  return { job, inserts, ask: inserts.filter((c) => c < maxColumns), headers, hidden };
}

function columnIsEmpty(grid: unknown[][], index: number): boolean {
  if (grid.length === 0 || index >= grid[0].length) return true;
  return grid.every((row) => row[index] === '' || row[index] === null || row[index] === undefined);
}

/** Rows of firstRow..lastRow hidden by the sheet's filter; one call per row only when a filter exists. */
function hiddenRows(sheet: Sheet, firstRow: number, lastRow: number): Set<number> {
  const hidden = new Set<number>();
  const filter = sheet.getFilter();
  if (!filter) return hidden;
  const area = filter.getRange();
  for (let row = Math.max(firstRow, area.getRow()); row <= Math.min(lastRow, area.getLastRow()); row++) {
    if (sheet.isRowHiddenByFilter(row)) hidden.add(row);
  }
  return hidden;
}

/** Digits with separators, or a number: what a cell of a phone column looks like. */
function looksLikePhone(value: unknown): boolean {
  if (typeof value === 'number') return Number.isFinite(value);
  if (typeof value !== 'string') return false;
  return /\d/.test(value) && /^[\s\d+\-().[\]/\u00A0]+$/.test(value.trim());
}

// ── Reading and writing ───────────────────────────────────────────────────────────────────────────────

function minColumn(job: PhoneJob): number {
  return Math.min(...job.columns.map((c) => c.source));
}

function maxColumn(job: PhoneJob): number {
  return Math.max(...job.columns.map((c) => c.result));
}

/**
 * Header row plus rows firstRow..lastRow of every planned column, read from row 1 down (rows between the
 * header and firstRow are ignored). Row 0 is row 1. A number shown with leading zeros by its format
 * (07911123456, 0049...) is taken as shown: its value lost the zeros that say whether it is national.
 */
function readBlock(sheet: Sheet, job: PhoneJob): CellValue[][] {
  const first = minColumn(job);
  const range = sheet.getRange(1, first, job.lastRow, maxColumn(job) - first + 1);
  const shown = range.getDisplayValues();
  const all = (range.getValues() as CellValue[][]).map((line, r) =>
    line.map((value, c) => (typeof value === 'number' && /^\s*0/.test(shown[r][c]) ? shown[r][c] : value)),
  );
  return [all[0], ...all.slice(job.firstRow - 1)];
}

function surveyBlock(job: PhoneJob, block: CellValue[][], hidden: Set<number>): Survey {
  const first = minColumn(job);
  const entries: Entry[] = [];
  const distinct = new Set<string>();
  let invalidCells = 0;
  for (let offset = 0; offset <= job.lastRow - job.firstRow; offset++) {
    const row = job.firstRow + offset;
    if (hidden.has(row)) continue;
    const line = block[offset + 1] || [];
    job.columns.forEach((plan, column) => {
      if (plan.rows && !plan.rows.some(([from, to]) => row >= from && row <= to)) return;
      const normalized = cellPhone(line[plan.source - first]);
      if (!normalized) return;
      if (!normalized.ok) {
        entries.push({ column, offset, invalid: normalized.reason });
        invalidCells++;
        return;
      }
      entries.push({ column, offset, phone: normalized.phone });
      distinct.add(normalized.phone);
    });
  }
  return { entries, distinct, invalidCells };
}

/** One setValues per results column over the span of its changed rows. */
function writeChanges(sheet: Sheet, job: PhoneJob, grids: CellValue[][], changed: Array<Set<number>>): void {
  job.columns.forEach((plan, column) => {
    const rows = changed[column];
    if (rows.size === 0) return;
    const from = Math.min(...rows);
    const to = Math.max(...rows);
    const values = grids[column].slice(from, to + 1).map((value) => [toCell(value)]);
    sheet.getRange(job.firstRow + from, plan.result, values.length, 1).setValues(values);
    rows.clear();
  });
}

function toCell(value: CellValue): CellValue {
  return typeof value === 'string' ? textCell(value) : value;
}

function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date) return false;
  return (a ?? '') === (b ?? '');
}

// ── Texts ─────────────────────────────────────────────────────────────────────────────────────────────

function progressText(job: PhoneJob): string {
  return `Checked ${job.done} of ${count(job.total, 'number')}…`;
}

function summaryText(job: PhoneJob): string {
  if (job.total === 0 && job.known) {
    const all = job.known === 1 ? 'The number was' : `All ${count(job.known, 'number')} were`;
    return `${all} already checked (no credits used).`;
  }
  if (job.total === 0) return `No valid number to check: see the "${RESULT_HEADER}" column.`;
  return `${job.done} of ${count(job.total, 'number')} checked (${count(job.charged, 'credit')} used; results are kept for ${RECHECK_AFTER_DAYS} days).`;
}

/** "1 number", "2 numbers". */
function count(n: number, noun: string): string {
  return `${n} ${noun}${n === 1 ? '' : 's'}`;
}

export function columnName(column: number): string {
  let name = '';
  for (let n = column; n > 0; n = Math.floor((n - 1) / 26))
    name = String.fromCharCode(65 + ((n - 1) % 26)) + name;
  return name;
}
