'use strict';
// What the page needs from the emulator, and what the user does to it, in one place: the drawn state of
// every sheet (display values as Sheets would show them, formulas, notes, styles, hidden rows, frozen rows,
// the selection, the add-on menu), the UI records that appeared since the last look (toasts, sidebars,
// dialogs), and user actions (select a range, type into cells) that are not executions of the add-on.
const { displayValue } = require('../../test/emulator/values');
const { parseCall } = require('../../test/emulator/formulas');
const { splitSheet, parseRef, toA1 } = require('../../test/emulator/a1');

const MAX_CELLS = 400000; // a sheet larger than this is cut (the page draws 1000 rows at a time anyway)

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

function sheetState(sheet, tz) {
  const lastRow = sheet.lastRow ? sheet.lastRow() : sheet.rows.length;
  const lastCol = sheet.lastColumn ? sheet.lastColumn() : 0;
  // Notes and styles on otherwise empty cells count too.
  let rows = lastRow;
  let cols = lastCol;
  sheet.rows.forEach((row, i) => {
    if (!row) return;
    row.forEach((cell, j) => {
      if (cell && (cell.note || cell.style)) {
        rows = Math.max(rows, i + 1);
        cols = Math.max(cols, j + 1);
      }
    });
  });
  if (rows * Math.max(cols, 1) > MAX_CELLS) rows = Math.floor(MAX_CELLS / Math.max(cols, 1));
  const cells = [];
  for (let r = 1; r <= rows; r++) {
    const line = [];
    for (let c = 1; c <= cols; c++) {
      const cell = sheet.cell(r, c);
      if (!cell) {
        line.push(null);
        continue;
      }
      const out = {};
      const text = displayValue(cell.v, cell.fmt, tz);
      if (text !== '') out.t = text;
      const kind = cellKind(cell.v, cell.error);
      if (kind) out.k = kind;
      if (cell.f) out.f = cell.f;
      if (typeof cell.v === 'string' && /^[=+\-@]/.test(cell.v) && !cell.f) out.e = `'${cell.v}`;
      const notes = [cell.note, cell.error ? `Error: ${cell.error}` : ''].filter(Boolean);
      if (notes.length) out.n = notes.join('\n');
      const style = styleOf(cell.style);
      if (style) out.s = style;
      line.push(Object.keys(out).length ? out : null);
    }
    while (line.length && line[line.length - 1] === null) line.pop();
    cells.push(line);
  }
  const hiddenRows = [];
  const limit = Math.max(rows, sheet.rowMeta.length);
  for (let r = 1; r <= limit; r++) {
    if (sheet.isRowHiddenByUser(r) || sheet.isRowHiddenByFilter(r)) hiddenRows.push(r);
  }
  return {
    name: sheet.name,
    rows,
    cols,
    maxRows: sheet.maxRows,
    maxCols: sheet.maxCols,
    frozenRows: sheet.frozenRows || 0,
    frozenCols: sheet.frozenColumns || 0,
    hiddenRows,
    filter: sheet.filter
      ? toA1(sheet.filter.row, sheet.filter.col, sheet.filter.numRows, sheet.filter.numCols)
      : null,
    cells,
  };
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

function buildState(emu, tracker) {
  const ss = model(emu);
  const tz = ss.timeZone;
  const active = ss.activeSheet();
  let selection = null;
  if (ss.selection && ss.byId(ss.selection.sheetId)) {
    const ranges = ss.selection.ranges;
    const last = ranges[ranges.length - 1];
    selection = {
      range: toA1(last.row, last.col, last.numRows, last.numCols),
      current: toA1(ss.selection.current.row, ss.selection.current.col),
    };
  }
  tracker.version++;
  return {
    version: tracker.version,
    selectSeq: tracker.selectSeq,
    activeSheet: active.name,
    selection,
    sheets: ss.sheets.filter((s) => !s.hidden).map((s) => sheetState(s, tz)),
    menus: menusOf(emu),
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
        if (type === 'dialog') event.modal = record.modal !== false;
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
 * '=' starts a formula; custom functions that read an edited cell, or were just typed, are evaluated.
 */
function editRange(emu, sheetName, a1, input) {
  const { ss, sheet, row, col, numRows, numCols } = resolve(emu, sheetName, a1);
  const text = input == null ? '' : String(input);
  for (let r = row; r < row + numRows; r++) {
    for (let c = col; c < col + numCols; c++) {
      if (text.startsWith('=') && text.length > 1) sheet.writeFormula(r, c, text);
      else if (text === '') sheet.clearCell(r, c, { contents: true });
      else sheet.write(r, c, text);
    }
  }
  markDependents(ss, sheet, { row, col, numRows, numCols });
  emu.recalculate({ dirtyOnly: true });
}

/** Marks custom-function formulas whose range arguments overlap the edited block, as Sheets recalculates them. */
function markDependents(ss, editedSheet, block) {
  for (const sheet of ss.sheets) {
    sheet.rows.forEach((line, i) => {
      if (!line) return;
      line.forEach((cell, j) => {
        if (!cell || !cell.f) return;
        const call = parseCall(cell.f);
        if (!call) return;
        const hit = call.args.some((arg) => {
          if (arg.type !== 'ref') return false;
          try {
            const split = splitSheet(arg.ref);
            const target = split.sheetName ? ss.byName(split.sheetName) : sheet;
            if (target !== editedSheet) return false;
            const ref = parseRef(split.ref, target.maxRows, target.maxCols);
            return (
              ref.row <= block.row + block.numRows - 1 &&
              block.row <= ref.row + ref.numRows - 1 &&
              ref.col <= block.col + block.numCols - 1 &&
              block.col <= ref.col + ref.numCols - 1
            );
          } catch {
            return false;
          }
        });
        if (hit) ss.markDirty(sheet, i + 1, j + 1);
      });
    });
  }
}

module.exports = { buildState, newUiEvents, selectRange, editRange, styleOf, menusOf };
