'use strict';
// What the page needs from the emulator, and what the user does to it, in one place: the drawn state of
// every sheet (display values as Sheets would show them, formulas, notes, styles, hidden rows, frozen rows,
// the selection, the add-on menu), the UI records that appeared since the last look (toasts, sidebars,
// dialogs), and user actions (select a range, type into cells) that are not executions of the add-on.
const { splitSheet, parseRef, toA1, quoteSheetName } = require('../../test/emulator/a1');
const { displayValue } = require('../../test/emulator/values');
const { DEMO_KEYS } = require('../sandbox');
const { EVALUATED_FUNCTIONS } = require('../../test/emulator/builtin-formulas');

const EVALUATED = `It evaluates custom functions, & + - * /, and ${EVALUATED_FUNCTIONS.join(', ')}.`;

const MAX_CELLS = 400000; // a sheet larger than this is cut (the page draws 1000 rows at a time anyway)

// Direct model access only where the emulator has no public API: user edits and the selection.
function model(emu) {
  return emu._model;
}

function cellKind(v, error) {
  if (error || (typeof v === 'string' && /^#[A-Z0-9/!?]+$/.test(v))) return 'error';
  if (typeof v === 'number') return 'number';
  if (typeof v === 'boolean') return 'boolean';
  if (v instanceof Date) return 'date';
  return '';
}

/** The few style properties the page draws, from whatever the emulator's range service recorded. */
function styleOf(style) {
  if (!style || typeof style !== 'object') return null;
  const out = {};
  const weight = style.fontWeight || style.weight;
  if (weight === 'bold' || style.bold === true) out.bold = true;
  if (style.fontStyle === 'italic' || style.italic === true) out.italic = true;
  if (style.fontLine === 'line-through' || style.strikethrough === true) out.strike = true;
  const color = style.fontColor || style.fontColorObject || style.color;
  if (typeof color === 'string' && /^#[0-9a-f]{3,8}$|^[a-z]+$/i.test(color)) out.color = color;
  const bg = style.background || style.backgroundColor;
  if (typeof bg === 'string' && /^#[0-9a-f]{3,8}$|^[a-z]+$/i.test(bg) && !/^#?fff(fff)?$/i.test(bg))
    out.background = bg;
  const align = String(style.horizontalAlignment || style.align || '').toLowerCase();
  if (['left', 'center', 'right'].includes(align)) out.align = align;
  if (style.wrap === true || style.wrapStrategy === 'WRAP') out.wrap = true;
  return Object.keys(out).length ? out : null;
}

/** What a cell holds that the page draws (the extent of a sheet, as emu.snapshot() measures it). */
function drawn(cell) {
  return Boolean(
    cell &&
    ((cell.v !== '' && cell.v !== undefined) ||
      cell.f ||
      cell.note ||
      cell.fmt ||
      cell.style ||
      cell.validation),
  );
}

/** The rows and columns a sheet's drawn cells span. */
function extent(sheet) {
  let rows = 0;
  let cols = 0;
  sheet.rows.forEach((row, r) => {
    if (!row) return;
    for (let c = row.length - 1; c >= 0; c--) {
      if (drawn(row[c])) {
        rows = r + 1;
        cols = Math.max(cols, c + 1);
        break;
      }
    }
  });
  return { rows, cols };
}

/** One cell in the page's compact form { t, k, f, e, n, x, s }, or null. */
function cellState(cell, tz) {
  if (!cell) return null;
  const out = {};
  const value = cell.v;
  const checkbox = cell.validation === 'checkbox';
  let text = displayValue(value, cell.fmt, tz);
  if (checkbox) {
    text = value === true ? '☑' : '☐';
    out.x = true; // a checkbox: a click on it or Space toggles it
  }
  if (text !== '') out.t = text;
  const kind = checkbox ? 'boolean' : cellKind(value, cell.error);
  if (kind) out.k = kind;
  const formula = cell.f || '';
  if (formula) out.f = formula;
  // Text that would read as a formula or a number is shown in the editor with the apostrophe Sheets adds.
  if (typeof value === 'string' && !formula && /^[=+\-@']/.test(value)) out.e = `'${value}`;
  const unevaluated = formula && cell.unevaluated;
  if (unevaluated) {
    // Never a blank cell where Sheets would show a result: the formula, marked as not evaluated here.
    out.t = formula;
    out.k = 'unevaluated';
  }
  const notes = [
    cell.note || '',
    cell.error ? `Error: ${cell.error}` : '',
    unevaluated
      ? `The playground does not evaluate this formula (${unevaluated}): Sheets would show its result; the add-on reads an empty cell here. ${EVALUATED}`
      : '',
  ].filter(Boolean);
  if (notes.length) out.n = notes.join('\n');
  const style = styleOf(cell.style);
  if (style) out.s = style;
  return Object.keys(out).length ? out : null;
}

/**
 * One sheet of the model in the page's compact form: cells[r][c] = { t, k, f, e, n, s } or null. Read from the
 * model directly: emu.snapshot() builds ten grids of every sheet and copies them through JSON, which took
 * seconds with the 7,000-row demo list after every operation.
 */
function sheetState(sheet, tz) {
  let { rows, cols } = extent(sheet);
  if (rows * Math.max(cols, 1) > MAX_CELLS) rows = Math.floor(MAX_CELLS / Math.max(cols, 1));
  const cells = [];
  for (let r = 1; r <= rows; r++) {
    const line = [];
    const row = sheet.rows[r - 1];
    if (row) for (let c = 1; c <= Math.min(cols, row.length); c++) line.push(cellState(row[c - 1], tz));
    while (line.length && line[line.length - 1] === null) line.pop();
    cells.push(line);
  }
  const hiddenRows = [];
  for (let r = 1; r <= Math.max(rows, sheet.rowMeta.length); r++)
    if (sheet.isRowHiddenByUser(r) || sheet.isRowHiddenByFilter(r)) hiddenRows.push(r);
  const f = sheet.filter;
  const columnWidths = {};
  sheet.colMeta.forEach((m, i) => {
    if (m && m.width !== undefined && m.width !== null) columnWidths[i + 1] = m.width;
  });
  return {
    name: sheet.name,
    rows,
    cols,
    maxRows: sheet.maxRows,
    maxCols: sheet.maxCols,
    frozenRows: sheet.frozenRows || 0,
    frozenCols: sheet.frozenColumns || 0,
    hiddenRows,
    filter: f ? toA1(f.row, f.col, f.numRows, f.numCols) : null,
    columnWidths,
    cells,
    charts: (sheet.charts || []).map((chart) => ({
      type: String(chart.chartType || ''),
      title: String((chart.options && chart.options.title) || ''),
      ranges: (chart.ranges || []).map(String),
      colors: Array.isArray(chart.options && chart.options.colors) ? chart.options.colors.map(String) : [],
      // Where Sheets draws it: over the grid from its anchor cell, at its size (600 × 371 unless set).
      anchor: chart.position
        ? {
            row: Number(chart.position.anchorRowPos) || 1,
            col: Number(chart.position.anchorColPos) || 1,
            x: Number(chart.position.offsetX) || 0,
            y: Number(chart.position.offsetY) || 0,
          }
        : { row: 1, col: 1, x: 0, y: 0 },
      width: Number(chart.options && chart.options.width) || 600,
      height: Number(chart.options && chart.options.height) || 371,
      percent: Boolean(chart.options && chart.options.isStacked === 'percent'),
      legend: legendPosition(chart.options || {}),
    })),
  };
}

/** Where a chart's legend goes, as set by setOption('legend', { position }) or setLegendPosition (Sheets: right). */
function legendPosition(options) {
  const legend = options.legend;
  const position = (legend && typeof legend === 'object' && legend.position) || options['legend.position'];
  return String(position || 'right').toLowerCase();
}

/** The shared clock (the sandbox's too) and the time-driven triggers waiting on it. */
function clockOf(emu) {
  return {
    now: emu.clock.now(),
    triggers: emu.triggers
      .filter((t) => t.eventType === 'CLOCK' && t.nextRunMs !== null)
      .map((t) => ({ handler: String(t.handler), nextRunMs: t.nextRunMs })),
  };
}

/** Moves the shared clock on by `ms` (1 s to 2 days); the triggers due meanwhile run, as in Apps Script. */
function advanceClock(emu, ms) {
  const span = Number(ms);
  if (!(span >= 1000 && span <= 2 * 24 * 3600 * 1000)) throw new Error('advance by 1 s to 2 days');
  return emu.advanceTime(span).map((run) => ({ handler: run.handler, status: run.status, error: run.error }));
}

/** Menus recorded by onOpen: [{ name, items: [{ label, fn } | { label, items } | { separator: true }] }]. */
function menusOf(emu) {
  const items = (list) =>
    (list || []).map((item) => {
      if (!item || item.separator) return { separator: true };
      if (item.submenu)
        return { label: String(item.caption || item.submenu.name), items: items(item.submenu.items) };
      return { label: String(item.caption), fn: String(item.functionName) };
    });
  const menus = (emu.ui && emu.ui.menus) || [];
  // Add-on menus live under Extensions; menus made with createMenu() too (the page has one menu root).
  return menus.map((menu) => ({
    name: String(menu.name || 'Add-on'),
    addon: Boolean(menu.addon),
    items: items(menu.items),
  }));
}

const DEMO_KEY_VALUES = new Set(Object.values(DEMO_KEYS));

/**
 * The service addresses and keys the add-on uses now (its user properties, as Settings saved them): the
 * status line shows these, not the ones the playground started with. A demo key is shown as it is (it is
 * printed in the README); any other key only by its last 4 characters.
 */
function settingsOf(emu) {
  const props = emu.properties.user;
  const keys = ['outreachApiKey', 'phoneApiKey'].map((name) => props.getProperty(`settings.${name}`) || '');
  const shown = keys.map((value) =>
    !value || DEMO_KEY_VALUES.has(value) ? value : `••••${value.slice(-4)}`,
  );
  return {
    outreachUrl: props.getProperty('settings.outreachBaseUrl') || '',
    phoneUrl: props.getProperty('settings.phoneBaseUrl') || '',
    outreachKey: shown[0],
    phoneKey: shown[1],
    demoKeys: keys.every((value) => DEMO_KEY_VALUES.has(value)),
  };
}

function buildState(emu, tracker) {
  const ss = model(emu);
  const active = ss.activeSheet();
  const sel = ss.selection;
  const selected = sel && (ss.byId(sel.sheetId) || active) === active ? sel : null;
  const last = selected && selected.ranges[selected.ranges.length - 1];
  tracker.version++;
  return {
    version: tracker.version,
    selectSeq: tracker.selectSeq,
    title: ss.name,
    activeSheet: active.name,
    selection: !sel
      ? { range: 'A1', current: 'A1' } // a file just opened: A1 of its first sheet
      : last
        ? {
            range: toA1(last.row, last.col, last.numRows, last.numCols),
            current: toA1(selected.current.row, selected.current.col),
          }
        : null,
    sheets: ss.sheets.filter((s) => !s.hidden).map((s) => sheetState(s, ss.timeZone)),
    menus: menusOf(emu),
    settings: settingsOf(emu),
    clock: clockOf(emu),
  };
}

/** Toasts, sidebars and dialogs recorded since the last call, numbered for the page. */
function newUiEvents(emu, tracker) {
  const ui = emu.ui || {};
  const lists = { toast: ui.toasts || [], sidebar: ui.sidebars || [], dialog: ui.dialogs || [] };
  if (!tracker.seen) tracker.seen = { toast: 0, sidebar: 0, dialog: 0 };
  const events = [];
  for (const [type, list] of Object.entries(lists)) {
    for (let i = tracker.seen[type]; i < list.length; i++) {
      const record = list[i];
      const event = { seq: ++tracker.uiSeq, type, title: String(record.title || '') };
      if (type === 'toast') {
        event.message = String(record.message != null ? record.message : record.msg || '');
        event.seconds = record.timeoutSeconds != null ? record.timeoutSeconds : record.seconds;
      } else {
        event.html = htmlOf(record);
        if (record.width) event.width = Number(record.width);
        if (record.height) event.height = Number(record.height);
        if (type === 'dialog') event.modal = record.type !== 'modeless';
      }
      events.push(event);
    }
    tracker.seen[type] = list.length;
  }
  return events;
}

function htmlOf(record) {
  if (typeof record.html === 'string') return record.html;
  if (typeof record.content === 'string') return record.content;
  const output = record.output || record.htmlOutput;
  if (output && typeof output.getContent === 'function') return output.getContent();
  return '';
}

function resolve(emu, sheetName, a1) {
  const ss = model(emu);
  const split = splitSheet(a1);
  const sheet = ss.byName(split.sheetName || sheetName) || ss.activeSheet();
  const ref = parseRef(split.ref, sheet.maxRows, sheet.maxCols);
  const numRows = Math.min(ref.numRows, sheet.maxRows - ref.row + 1);
  const numCols = Math.min(ref.numCols, sheet.maxCols - ref.col + 1);
  return { ss, sheet, row: ref.row, col: ref.col, numRows, numCols };
}

/** The user's selection becomes the active range (what getActiveRange() returns in the next execution). */
function selectRange(emu, sheetName, a1, current) {
  const { ss, sheet, row, col, numRows, numCols } = resolve(emu, sheetName, a1 || 'A1');
  let cur = { row, col };
  if (current) {
    const c = resolve(emu, sheet.name, current);
    cur = { row: c.row, col: c.col };
  }
  ss.select(sheet, [{ row, col, numRows, numCols }], cur);
}

/**
 * The user typed `input` into every cell of the range (Delete sends ''): values are coerced as Sheets does,
 * '=' starts a formula. Custom functions just typed, or reading a changed cell, are evaluated.
 */
function editRange(emu, sheetName, a1, input) {
  const { sheet, row, col, numRows, numCols } = resolve(emu, sheetName, a1);
  const range = emu.sheet(sheet.name).getRange(row, col, numRows, numCols);
  const text = input == null ? '' : String(input);
  if (text === '') range.clearContent();
  else if (text.startsWith('=') && text.length > 1) {
    for (let r = row; r < row + numRows; r++) {
      for (let c = col; c < col + numCols; c++)
        emu.setFormula(`${quoteSheetName(sheet.name)}!${toA1(r, c)}`, text);
    }
  } else range.setValue(text);
  recalculate(emu);
}

/**
 * Space on a selection, or a click on a checkbox, as in Sheets: the checkboxes of the range are all checked
 * when one of them is not, else all unchecked. Other cells of the range are left as they are.
 */
function toggleCheckboxes(emu, sheetName, a1) {
  const { sheet, row, col, numRows, numCols } = resolve(emu, sheetName, a1);
  const target = emu.sheet(sheet.name);
  const boxes = [];
  for (let r = row; r < row + numRows; r++) {
    for (let c = col; c < col + numCols; c++) {
      const cell = sheet.cell(r, c);
      if (cell && cell.validation === 'checkbox') boxes.push({ r, c, on: cell.v === true });
    }
  }
  const value = boxes.some((box) => !box.on);
  for (const box of boxes) target.getRange(box.r, box.c).setValue(value);
  recalculate(emu);
  return boxes.length;
}

/** Pasted text (rows of cells) from the given cell on, coerced as typed input; the sheet grows to fit. */
function pasteValues(emu, sheetName, a1, values) {
  if (!Array.isArray(values) || values.length === 0) return;
  const width = Math.max(...values.map((row) => row.length));
  const grid = values.map((row) =>
    Array.from({ length: width }, (_, i) => (row[i] == null ? '' : String(row[i]))),
  );
  const { sheet, row, col } = resolve(emu, sheetName, a1);
  const target = emu.sheet(sheet.name);
  const needRows = row + grid.length - 1 - target.getMaxRows();
  if (needRows > 0) target.insertRowsAfter(target.getMaxRows(), needRows);
  const needCols = col + width - 1 - target.getMaxColumns();
  if (needCols > 0) target.insertColumnsAfter(target.getMaxColumns(), needCols);
  target.getRange(row, col, grid.length, width).setValues(grid);
  recalculate(emu);
}

/**
 * What a user does to a sheet's structure from the page's menus (Insert, Edit, View, Data, the context menus
 * and the sheet tabs), each through the Apps Script method of the same name, as an edit of the user's (no
 * execution): the emulator moves cells, notes, formats, formulas' references and array outputs as Sheets
 * does (test/emulator/README.md). `args` are numbers and names from the page: { at, count, column,
 * ascending, range, header, name, rows }.
 */
const STRUCTURE_EDITS = {
  insertRowsBefore: (sheet, a) => sheet.insertRowsBefore(a.at, a.count),
  insertRowsAfter: (sheet, a) => sheet.insertRowsAfter(a.at, a.count),
  deleteRows: (sheet, a) => sheet.deleteRows(a.at, a.count),
  insertColumnsBefore: (sheet, a) => sheet.insertColumnsBefore(a.at, a.count),
  insertColumnsAfter: (sheet, a) => sheet.insertColumnsAfter(a.at, a.count),
  deleteColumns: (sheet, a) => sheet.deleteColumns(a.at, a.count),
  // Edit › Move: the rows or columns go before line `to` (counted before the move), as Sheets' menu does.
  moveRows: (sheet, a) => sheet.moveRows(sheet.getRange(a.at, 1, a.count, 1), a.to),
  moveColumns: (sheet, a) => sheet.moveColumns(sheet.getRange(1, a.at, 1, a.count), a.to),
  hideRows: (sheet, a) => sheet.hideRows(a.at, a.count),
  showRows: (sheet, a) => sheet.showRows(a.at, a.count),
  setFrozenRows: (sheet, a) => sheet.setFrozenRows(a.rows),
  // Data › Sort sheet: the rows below the frozen ones. Data › Sort range: the range, its first row kept
  // in place when the user says it is a header row (Sheets' "Data has header row").
  sort: (sheet, a) => sheet.sort(a.column, a.ascending),
  sortRange: (sheet, a) => {
    let range = sheet.getRange(a.range);
    if (a.header) {
      if (range.getNumRows() < 2) return;
      range = range.offset(1, 0, range.getNumRows() - 1);
    }
    range.sort({ column: a.column, ascending: a.ascending });
  },
  createFilter: (sheet, a) => sheet.getRange(a.range).createFilter(),
  removeFilter: (sheet) => sheet.getFilter() && sheet.getFilter().remove(),
  insertCheckboxes: (sheet, a) => sheet.getRange(a.range).insertCheckboxes(),
  setName: (sheet, a) => sheet.setName(String(a.name || '').trim() || sheet.getName()),
  activate: (sheet) => sheet.activate(),
};

/** A structure edit (STRUCTURE_EDITS), a new sheet (insertSheet) or a sheet deleted (deleteSheet). */
function editStructure(emu, sheetName, action, args = {}) {
  const ss = emu.spreadsheet;
  if (action === 'insertSheet') {
    // Sheets names a new sheet "Sheet N" and puts it after the active one.
    const index = args.after ? ss.getSheetByName(args.after).getIndex() : ss.getNumSheets();
    return ss.insertSheet(index).getName();
  }
  if (action === 'renameSpreadsheet') {
    ss.rename(String(args.name || '').trim() || ss.getName());
    return null;
  }
  const sheet = ss.getSheetByName(sheetName);
  if (!sheet) throw new Error(`There is no sheet "${sheetName}" any more.`);
  if (action === 'deleteSheet') {
    ss.deleteSheet(sheet);
    return null;
  }
  if (!Object.hasOwn(STRUCTURE_EDITS, action)) throw new Error(`No such sheet edit: ${action}`);
  STRUCTURE_EDITS[action](sheet, args);
  recalculate(emu);
  return sheet.getName();
}

/** Formulas whose inputs changed (by a user edit or an execution) are evaluated again, as Sheets does. */
function recalculate(emu) {
  return emu.recalculate({ dirtyOnly: true });
}

module.exports = {
  advanceClock,
  editStructure,
  buildState,
  newUiEvents,
  selectRange,
  editRange,
  toggleCheckboxes,
  pasteValues,
  recalculate,
  styleOf,
  menusOf,
  settingsOf,
};
