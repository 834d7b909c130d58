// What the decisions show on the sheets, written before the ledger takes them (inbox.ts): a reply
// ticks the row's Replied, a request to be removed adds a Do not contact row with its reason and day, a bounce
// makes the row's Mail status Failed with the notice's status, and the Sequence cell says where the row is
// ("Stopped: replied 2026-12-03", "Paused: out of office until 2026-12-10"). Every write finds its row by
// recipient and is the same when done twice, so a scan cut off before its record was saved is redone whole.
// A reply's company is named here, from its row, and marked when the record takes it (decide.ts).
import {
  cellText,
  type CellValue,
  stateCell,
  type MailState,
  type ListRow,
  MailingList,
  normalizeHeader,
  Table,
} from '../../sheets';
import { listOnDoNotContact, type Ledger } from '../outbox';
import { REPLIED_HEADER, writeSequence, companyOf, sequenceText, type SequenceView } from '../sequence';
import { whenText, spreadsheetZone } from '../words';
import type { Decision } from './decide';
import { INBOX_TEXTS } from './inbox-texts';

type Spreadsheet = GoogleAppsScript.Spreadsheet.Spreadsheet;

/** States a failure notice may overturn: the service took the mail and has not said it failed. */
const IN_FLIGHT = new Set<MailState['kind']>(['accepted', 'pending', 'requested', 'sent', 'delivered']);

/** Writes the decisions on their lists (and Do not contact); fills each reply's company. */
export function applyToSheets(spreadsheet: Spreadsheet, ledger: Ledger, decisions: Decision[]): void {
  const zone = spreadsheetZone(spreadsheet);
  const day = (ms: number) => Utilities.formatDate(new Date(ms), zone, 'yyyy-MM-dd');
  const sheets = new Map(spreadsheet.getSheets().map((s) => [s.getSheetId(), s]));
  const removals: Array<{ email: string; reason: string }> = [];
  const bySheet = new Map<number, Decision[]>();
  for (const d of decisions) for (const id of d.sheetIds) bySheet.set(id, [...(bySheet.get(id) || []), d]);
  for (const [sheetId, mine] of bySheet) {
    const sheet = sheets.get(sheetId);
    let list: MailingList;
    try {
      if (!sheet) continue;
      list = MailingList.open(sheet, false);
    } catch {
      continue; // its recipient column is gone: the record still takes the decision
    }
    const rows = new Map<string, ListRow>();
    for (const row of list.readRows()) if (row.key && !rows.has(row.key)) rows.set(row.key, row);
    const writes = listWrites(ledger, sheetId, mine, rows, day);
    removals.push(...writes.removals);
    writeList(list, writes, (ms) => whenText(ms, zone));
  }
  listOnDoNotContact(spreadsheet, removals);
}

interface ListWrites {
  replied: Set<string>;
  views: Map<string, SequenceView>;
  failed: Map<string, Record<string, CellValue>>;
  removals: Array<{ email: string; reason: string }>;
}

function listWrites(
  ledger: Ledger,
  sheetId: number,
  decisions: Decision[],
  rows: Map<string, ListRow>,
  day: (ms: number) => string,
): ListWrites {
  const entry = ledger.list(sheetId);
  const writes: ListWrites = { replied: new Set(), views: new Map(), failed: new Map(), removals: [] };
  for (const d of decisions) {
    const row = rows.get(d.verdict.address);
    if (!row) continue;
    const person = entry && entry.people.get(d.addr);
    const stepsLeft = !!entry && !!person && entry.steps > 0 && !person.stop && person.posted <= entry.steps;
    switch (d.verdict.code) {
      case 'reply': {
        writes.replied.add(row.key);
        const company = companyOf(row);
        if (company) d.companyKey = company.key;
        writes.views.set(row.key, { kind: 'stopped', code: 'replied', detail: day(d.at) });
        break;
      }
      case 'outOfOffice':
        if (stepsLeft) writes.views.set(row.key, { kind: 'paused', until: d.verdict.until });
        break;
      case 'unsubscribe': {
        const reason = INBOX_TEXTS.removalReason(day(d.at));
        writes.removals.push({ email: row.email, reason });
        writes.views.set(row.key, { kind: 'stopped', code: 'optedOut', detail: reason });
        break;
      }
      case 'bounce': {
        const state: MailState = { kind: 'failed', reason: INBOX_TEXTS.bounceReason(d.verdict.status) };
        writes.failed.set(row.key, { mailStatus: stateCell(state) });
        writes.views.set(row.key, { kind: 'stopped', code: 'failed' });
        break;
      }
    }
  }
  if (!entry || entry.steps === 0) writes.views.clear(); // a list without follow-ups has no Sequence column
  return writes;
}

function writeList(list: MailingList, writes: ListWrites, when: (ms: number) => string): void {
  const texts = new Map<string, string>();
  for (const [key, view] of writes.views) texts.set(key, sequenceText(view, when));
  writeSequence(list, texts);
  tickReplied(list, writes.replied);
  list.writeByRecipient(writes.failed, (state) => IN_FLIGHT.has(state.kind));
}

/** Ticks the Replied cell of these recipients where the list has that column. */
function tickReplied(list: MailingList, keys: Set<string>): void {
  const recipient = list.table.column('recipient');
  const column = list.headers.map(normalizeHeader).indexOf(normalizeHeader(REPLIED_HEADER)) + 1;
  if (!recipient || !column || keys.size === 0) return;
  const table = Table.onColumns(list.sheet, { recipient, replied: { column, header: REPLIED_HEADER } });
  table.updateByKey(
    (row) => cellText(row.values.recipient).trim().toLowerCase(),
    new Map([...keys].map((key) => [key, { replied: true }])),
  );
}
