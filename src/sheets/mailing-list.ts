// Any sheet is a mailing list: row 1 holds headers, the recipient column is found by its header ("E-mail",
// "Email", "Email address", any case, spaces and hyphens ignored), the salutation from "Nickname" or "Name".
// The add-on's own columns (MAIL_COLUMNS) are added at the right when missing and found by header afterwards.
// Rows are read in one block (values for addresses and ids, display values for the template: a date or an
// amount is inserted as the user sees it). The list ends at its first fully blank row (list-block.ts): rows
// below it, a row with no value of the user's, and a row whose Mail status, Task ID, Mail ID or Sent at holds
// a formula or an array formula's output are left alone (never sent, never written).
import { addressKey } from './address';
import { cellText, CellValue, textAsShown } from './cells';
import { MAIL_COLUMNS } from './layouts';
import { guardedCells, isEmptyCell, readListBlock } from './list-block';
import { idOf, MailState, parseState } from './mail-state';
import { normalizeHeader, Table, TableRow } from './table';
import { headerCells } from './table-layout';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

const RECIPIENT_HEADERS = ['email', 'emailaddress'];
const NICKNAME_HEADERS = ['nickname', 'name'];

export interface ListRow {
  rowNumber: number;
  /** Normalised header → the cell as displayed. */
  display: Map<string, string>;
  /** The address as written (trimmed); `key` is its lower-case form. */
  email: string;
  key: string;
  nickname: string;
  /** What its Mail status says. */
  state: MailState;
  mailId: string;
  taskId: string;
  /** When the row's mail was sent (the chunk's time), or null. */
  sentAt: Date | null;
}

/** Whether a header names the recipient column ("E-mail", "Email", "Email address", any case). */
export function isRecipientHeader(header: unknown): boolean {
  return RECIPIENT_HEADERS.includes(normalizeHeader(header).replace(/[\s_-]+/g, ''));
}

export class MailingList {
  private constructor(
    readonly sheet: Sheet,
    readonly table: Table,
    readonly headers: string[],
    private readonly recipientColumn: number,
    private readonly nicknameColumn: number,
  ) {}

  /** Finds the columns; adds the add-on's own when `addColumns` (a read-only look, such as a preview, does not). */
  static open(sheet: Sheet, addColumns = true): MailingList {
    const width = Math.max(sheet.getLastColumn(), 1);
    const headers = sheet
      .getRange(1, 1, 1, width)
      .getDisplayValues()[0]
      .map((h) => String(h));
    const compact = headers.map((h) => normalizeHeader(h).replace(/[\s_-]+/g, ''));
    const recipient = compact.findIndex((h) => RECIPIENT_HEADERS.includes(h)) + 1;
    if (recipient === 0) throw new RecipientColumnMissing(sheet.getName());
    const nickname = NICKNAME_HEADERS.map((n) => compact.indexOf(n)).find((i) => i >= 0);
    const layout = {
      sheetName: sheet.getName(),
      columns: [{ key: 'recipient', header: headers[recipient - 1] }, ...MAIL_COLUMNS],
      block: true,
    };
    const spreadsheet = sheet.getParent();
    // The header row just read finds the add-on's columns too (their headers are text: shown as stored). The
    // ones it lacks are written with the list's first write, after the reads that come before it.
    const table = addColumns
      ? Table.open(spreadsheet, layout, true, headers)
      : (Table.find(spreadsheet, layout, headers) as Table);
    return new MailingList(sheet, table, headers, recipient, nickname === undefined ? 0 : nickname + 1);
  }

  /**
   * The list's rows (or the given ones) that are the user's (see the top), with one getValues, one
   * getFormulas and one getDisplayValues.
   */
  readRows(only?: Set<number>): ListRow[] {
    const width = Math.max(this.sheet.getLastColumn(), this.headers.length);
    const own = MAIL_COLUMNS.flatMap((spec) => {
      const column = this.table.column(spec.key);
      return column ? [{ key: spec.key, column, own: spec.own }] : [];
    });
    const ownColumns = new Set(own.map((c) => c.column - 1));
    const named = [this.recipientColumn, this.nicknameColumn, ...own.map((c) => c.column)];
    const block = readListBlock(
      this.sheet,
      width,
      true,
      named.map((column) => column - 1),
    );
    const display = block.display!;
    const headers = this.headers.map(normalizeHeader); // read when the list was opened
    const guarded = guardedCells(block, own);
    this.table.guard(guarded, 2, Infinity); // every row below the header was read
    const users = (block.columns || Array.from({ length: width }, (_, c) => c)).filter(
      (c) => !ownColumns.has(c),
    );
    const rows: ListRow[] = [];
    block.values.forEach((cells, i) => {
      const rowNumber = i + 2;
      if (only && !only.has(rowNumber)) return;
      if (users.every((c) => isEmptyCell(cells[c]))) return;
      if (own.some(({ column }) => guarded.has(`${rowNumber}:${column}`))) return;
      rows.push(this.listRow(rowNumber, cells, display[i], headers));
    });
    return rows;
  }

  private listRow(rowNumber: number, cells: unknown[], display: string[], headers: string[]): ListRow {
    const shown = new Map<string, string>();
    headers.forEach((h, c) => {
      if (h && !shown.has(h)) shown.set(h, display[c]);
    });
    const column = (key: string) => this.table.column(key);
    const at = (col: number | undefined) => (col ? cellText(cells[col - 1]) : '');
    const id = (col: number | undefined) => {
      const value = col ? idOf(cells[col - 1]) : null;
      return value === null ? '' : String(value);
    };
    const recipient = this.recipientColumn;
    const email = recipient ? textAsShown(cells[recipient - 1], display[recipient - 1]) : '';
    return {
      rowNumber,
      display: shown,
      email,
      key: addressKey(email),
      nickname: this.nicknameColumn ? display[this.nicknameColumn - 1].trim() : '',
      state: parseState(at(column('mailStatus'))),
      mailId: id(column('mailId')),
      taskId: id(column('taskId')),
      sentAt: dateAt(cells, column('sentAt')),
    };
  }

  /**
   * Whether the header row and these rows' addresses are where they were read (another editor may have
   * inserted, deleted or sorted rows or columns since, e.g. while a question was open): one read of the header
   * and one of the e-mail column.
   */
  stillAsRead(rows: ListRow[]): boolean {
    const headers = headerCells(this.sheet, true);
    // Right of the list as read, only the add-on's own columns this list added since, where it put them.
    const added = new Map(MAIL_COLUMNS.map((spec) => [this.table.column(spec.key), spec.header]));
    const expected = (i: number) => (i < this.headers.length ? this.headers[i] : added.get(i + 1));
    if (headers.length < this.headers.length || headers.some((h, i) => String(h) !== expected(i)))
      return false;
    if (rows.length === 0) return true;
    const last = Math.max(...rows.map((row) => row.rowNumber));
    if (this.sheet.getLastRow() < last) return false;
    const shown = this.sheet.getRange(2, this.recipientColumn, last - 1, 1).getDisplayValues();
    return rows.every((row) => addressKey(shown[row.rowNumber - 2][0]) === row.key);
  }

  /** Writes the add-on's columns by row number (rows just read in this execution). */
  writeRows(rows: TableRow[], changes: Map<number, Record<string, CellValue>>): void {
    this.table.update(rows, changes);
  }

  /**
   * Writes results by recipient after slow work (a post): the header row and the rows are read again now, so
   * a sort, an inserted or deleted row or column, or a renamed sheet puts nothing on the wrong cell. Each
   * address's result goes to one row: its row still in flight; for an address in `sent` (a mail the service
   * took), else its first row without a Mail ID (another editor may have cleared its status meanwhile: the
   * mail went, its row shows it). The Mail IDs of `sent` are read back: one that a row moved off while it was
   * written (an edit between the read and the write) is written again, on the list as it is then; still not on
   * its row, ViewNotWritten (the caller keeps what it owes). Returns the addresses written. Throws
   * RecipientColumnMissing when the list has no recipient column now (the caller keeps what it owes too).
   */
  writeByRecipient(
    changes: Map<string, Record<string, CellValue>>,
    inFlight: (state: MailState) => boolean,
    sent: Set<string> = new Set(),
  ): Set<string> {
    // Address → the Mail ID its row must show (the mails the service took).
    const expected = new Map<string, string>();
    for (const key of sent) {
      const mailId = changes.get(key)?.mailId;
      if (mailId !== undefined && mailId !== '') expected.set(key, String(mailId));
    }
    const ours = new Set(expected.values());
    const written = this.writeOnce(changes, inFlight, sent, ours);
    for (let attempt = 0; expected.size > 0; attempt++) {
      const { missing, stray, list, rows } = this.readBack(expected, written);
      if (missing.size === 0 && stray.length === 0) break;
      if (attempt === WRITE_ATTEMPTS) throw new ViewNotWritten(this.sheet.getName());
      // A row that moved under the write holds another address's id of this batch: emptied, then each id is
      // written again on its own address's row.
      const blank: Record<string, CellValue> = { mailStatus: '', taskId: '', mailId: '', sentAt: '' };
      if (stray.length) list.table.update(rows, new Map(stray.map((row) => [row.rowNumber, blank])));
      const again = new Map([...missing].map((key) => [key, changes.get(key)!]));
      this.writeOnce(again, inFlight, missing, ours);
    }
    return written;
  }

  /**
   * The list as it is now against the ids just written: the addresses whose Mail ID no row of theirs shows, and
   * the rows that show one of these ids under another address.
   */
  private readBack(
    expected: Map<string, string>,
    written: Set<string>,
  ): { missing: Set<string>; stray: TableRow[]; list: MailingList; rows: TableRow[] } {
    const owner = new Map([...expected].map(([key, id]) => [id, key]));
    const missing = new Set([...expected.keys()].filter((key) => written.has(key)));
    const stray: TableRow[] = [];
    const list = MailingList.open(this.sheet, false);
    const rows = list.table.readAll();
    for (const row of rows) {
      const key = addressKey(cellText(row.values.recipient));
      const id = cellText(row.values.mailId);
      if (!owner.has(id)) continue;
      if (owner.get(id) === key) missing.delete(key);
      else stray.push(row);
    }
    return { missing, stray, list, rows };
  }

  /** One write by recipient on the list as read now; a row holding an id in `ours` (this batch's) may be taken. */
  private writeOnce(
    changes: Map<string, Record<string, CellValue>>,
    inFlight: (state: MailState) => boolean,
    sent: Set<string>,
    ours: Set<string>,
  ): Set<string> {
    const written = new Set<string>();
    if (changes.size === 0) return written;
    const fresh = MailingList.open(this.sheet, true);
    const rows = fresh.table.readAll();
    const chosen = new Map<string, { row: TableRow; inFlight: boolean }>();
    for (const row of rows) {
      const key = addressKey(cellText(row.values.recipient));
      if (!key || !changes.has(key)) continue;
      const flying = inFlight(parseState(cellText(row.values.mailStatus)));
      const free =
        sent.has(key) && (idOf(row.values.mailId) === null || ours.has(cellText(row.values.mailId)));
      const known = chosen.get(key);
      if ((flying || free) && (!known || (flying && !known.inFlight)))
        chosen.set(key, { row, inFlight: flying });
    }
    const byRow = new Map<number, Record<string, CellValue>>();
    for (const [key, { row }] of chosen) {
      byRow.set(row.rowNumber, changes.get(key)!);
      written.add(key);
    }
    fresh.table.update(rows, byRow);
    return written;
  }
}

function dateAt(cells: unknown[], col: number | undefined): Date | null {
  const value = col ? cells[col - 1] : null;
  return value instanceof Date ? value : null;
}

/** Times a batch's ids are written again when a read-back does not find them on their rows. */
const WRITE_ATTEMPTS = 2;

/** The rows kept moving while a batch's ids were written: the batch stays owed, written by the next run. */
export class ViewNotWritten extends Error {
  constructor(sheetName: string) {
    super(`The rows of "${sheetName}" moved while the ids of the mails just sent were written.`);
    this.name = 'ViewNotWritten';
  }
}

export class RecipientColumnMissing extends Error {
  constructor(sheetName: string) {
    super(
      `The sheet "${sheetName}" has no e-mail column: name the column of addresses "E-mail" (or "Email", "Email address") in row 1.`,
    );
    this.name = 'UserError';
  }
}
