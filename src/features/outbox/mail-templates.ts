// One mail template per sheet, kept in the document itself: a hidden sheet "Outreach templates", one row per
// mailing list (its sheet id, campaign, subject, format, when saved, and the body over as many cells as it
// needs, BODY_PART characters each: a cell holds 50,000). Every editor of the document sends with it. Not in
// document properties: a template may be 50,000 characters (150 KB of UTF-8 in Chinese) and a document may
// have a template on any number of sheets, while the property store has 500 KB for everything. The
// follow-up steps of a mail (sequence/sequence-steps.ts) are one more row, "<sheet id> follow-ups" in the
// Sheet ID column, their JSON in the body's cells; when its mails may go (send-timing.ts) one more,
// "<sheet id> timing".
import { textCell } from '../../sheets';
import { FollowUp, followUpsFromText } from './follow-ups';
import { parseTiming, timed, type Timing } from './send-timing';
import { parseSubjectTest, type SubjectTest } from './subject-test';

export interface StoredTemplate {
  campaign: string;
  subject: string;
  body: string;
  bodyFormat: 'text' | 'html';
  savedAt: number;
  /** Follow-up steps (none: a single mail). */
  followUps?: FollowUp[];
  /** Send window, dates to skip, hourly limit (none: every mail goes as soon as it may). */
  timing?: Timing;
  /** Subjects tested on a share of the list, the winner sent to the rest (subject-test.ts). */
  subjectTest?: SubjectTest;
}

const TEMPLATES_SHEET = 'Outreach templates';
/** Characters of the body per cell (under the 50,000 a cell holds, with room for the quote prefix). */
const BODY_PART = 40_000;
const HEADERS = ['Sheet ID', 'Campaign', 'Subject', 'Format', 'Saved at', 'Body'];
const BODY_COLUMN = 6;

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const followUpsKey = (sheetId: number) => `${sheetId} follow-ups`;
const timingKey = (sheetId: number) => `${sheetId} timing`;

function templatesSheet(create: boolean): Sheet | null {
  const spreadsheet = SpreadsheetApp.getActiveSpreadsheet();
  const found = spreadsheet.getSheetByName(TEMPLATES_SHEET);
  if (found || !create) return found;
  const selection = spreadsheet.getActiveRangeList(); // insertSheet activates the new sheet: stay where we were
  const sheet = spreadsheet.insertSheet(TEMPLATES_SHEET, spreadsheet.getNumSheets());
  sheet.getRange(1, 1, 1, HEADERS.length).setValues([HEADERS]);
  sheet.hideSheet();
  if (selection) selection.activate();
  return sheet;
}

/** The rows of the templates sheet (one getValues), or [] when there is none. */
function readRows(sheet: Sheet | null): unknown[][] {
  if (!sheet || sheet.getLastRow() < 2) return [];
  return sheet
    .getRange(2, 1, sheet.getLastRow() - 1, Math.max(sheet.getLastColumn(), BODY_COLUMN))
    .getValues();
}

export function loadTemplate(sheetId: number): StoredTemplate | null {
  const rows = readRows(templatesSheet(false));
  const row = rows.find((r) => Number(r[0]) === sheetId);
  if (!row) return null;
  const steps = rows.find((r) => String(r[0]) === followUpsKey(sheetId));
  const followUps = steps ? followUpsFromText(bodyOf(steps)) : [];
  const timingRow = rows.find((r) => String(r[0]) === timingKey(sheetId));
  const { timing, subjectTest } = timingRow ? timingFromText(bodyOf(timingRow)) : {};
  return {
    campaign: String(row[1]),
    subject: String(row[2]),
    bodyFormat: row[3] === 'html' ? 'html' : 'text',
    savedAt: Number(row[4]) || 0,
    body: bodyOf(row),
    ...(followUps.length ? { followUps } : {}),
    ...(timing ? { timing } : {}),
    ...(subjectTest ? { subjectTest } : {}),
  };
}

/** The timing row's JSON: when mails go, and the subject test. */
function timingFromText(text: string): { timing?: Timing; subjectTest?: SubjectTest } {
  try {
    const saved = JSON.parse(text) as Record<string, unknown>;
    const timing = parseTiming(saved);
    const subjectTest = parseSubjectTest(saved);
    return { ...(timed(timing) ? { timing } : {}), ...(subjectTest ? { subjectTest } : {}) };
  } catch {
    return {}; // unreadable (edited by hand): no rule, as before it was saved
  }
}

const bodyOf = (row: unknown[]) =>
  row
    .slice(BODY_COLUMN - 1)
    .map((part) => String(part))
    .join('');

export function storeTemplate(sheetId: number, template: Omit<StoredTemplate, 'savedAt'>): StoredTemplate {
  const stored: StoredTemplate = { ...template, savedAt: Date.now() };
  if (!stored.followUps || stored.followUps.length === 0) delete stored.followUps;
  if (!timed(stored.timing)) delete stored.timing;
  if (!stored.subjectTest) delete stored.subjectTest;
  const sheet = templatesSheet(true)!;
  const rows = readRows(sheet);
  const head = [textCell(stored.campaign), textCell(stored.subject), stored.bodyFormat, stored.savedAt];
  writeRow(sheet, rows, sheetId, [sheetId, ...head], stored.body);
  const steps = followUpsKey(sheetId);
  const hasSteps = rows.some((r) => String(r[0]) === steps);
  if (stored.followUps || hasSteps)
    writeRow(sheet, rows, steps, [steps, '', '', '', stored.savedAt], JSON.stringify(stored.followUps || []));
  const timing = timingKey(sheetId);
  const test = stored.subjectTest;
  const saved = {
    ...(stored.timing || {}),
    ...(test
      ? {
          subjectVariants: test.variants,
          subjectTest: { share: test.share, decideAfterHours: test.decideAfterHours },
        }
      : {}),
  };
  if (stored.timing || test || rows.some((r) => String(r[0]) === timing))
    writeRow(sheet, rows, timing, [timing, '', '', '', stored.savedAt], JSON.stringify(saved));
  return stored;
}

/** Writes one row of the templates sheet (found by its Sheet ID cell, else appended): `head`, then `body` in parts. */
function writeRow(
  sheet: Sheet,
  rows: unknown[][],
  key: number | string,
  head: Array<string | number>,
  body: string,
): void {
  const index = rows.findIndex((r) =>
    typeof key === 'number' ? Number(r[0]) === key : String(r[0]) === key,
  );
  const rowNumber = index >= 0 ? index + 2 : Math.max(sheet.getLastRow(), 1) + 1;
  const parts: string[] = [];
  for (let at = 0; at < body.length || parts.length === 0; at += BODY_PART)
    parts.push(body.slice(at, at + BODY_PART));
  const width = Math.max(sheet.getLastColumn(), BODY_COLUMN - 1 + parts.length);
  const cells: Array<string | number> = [...head, ...parts.map(textCell)];
  while (cells.length < width) cells.push(''); // a shorter body clears the parts of a longer one
  if (sheet.getMaxColumns() < width)
    sheet.insertColumnsAfter(sheet.getMaxColumns(), width - sheet.getMaxColumns());
  sheet.getRange(rowNumber, 1, 1, width).setValues([cells]);
  if (index < 0) rows.push(cells); // a second row written in this call is placed below it
}
