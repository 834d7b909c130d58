'use strict';
// A1 notation: 'A1', 'A1:C3', 'A:A', 'A2:C', '2:2', "'My Sheet'!B2:D", '$A$1'.
const { AppsScriptError } = require('./errors');

function columnToLetters(col) {
  let s = '';
  for (let n = col; n > 0; n = Math.floor((n - 1) / 26)) s = String.fromCharCode(65 + ((n - 1) % 26)) + s;
  return s;
}

function lettersToColumn(letters) {
  let n = 0;
  for (const ch of letters.toUpperCase()) n = n * 26 + (ch.charCodeAt(0) - 64);
  return n;
}

/** Splits "'Sheet name'!A1:B2" into { sheetName, ref }. */
function splitSheet(a1) {
  const s = String(a1).trim();
  const m = /^(?:'((?:[^']|'')+)'|([^'!:]+))!(.*)$/.exec(s);
  if (!m) return { sheetName: null, ref: s };
  return { sheetName: m[1] !== undefined ? m[1].replace(/''/g, "'") : m[2], ref: m[3] };
}

const PART = /^\$?([A-Za-z]{1,3})?\$?(\d+)?$/;

/**
 * Parses a ref (without sheet) against a sheet size. Returns 1-based { row, col, numRows, numCols,
 * openRows, openCols }; open ends (A:A, 2:2, A2:C) extend to the sheet's max rows/columns.
 */
function parseRef(ref, maxRows, maxCols) {
  const bad = () => new AppsScriptError('Range not found');
  const parts = String(ref).trim().split(':');
  if (parts.length < 1 || parts.length > 2 || parts.some((p) => p === '')) throw bad();
  const ends = parts.map((p) => {
    const m = PART.exec(p);
    if (!m || (!m[1] && !m[2])) throw bad();
    return { col: m[1] ? lettersToColumn(m[1]) : null, row: m[2] ? Number(m[2]) : null };
  });
  const [a, b = a] = ends;
  if (parts.length === 1 && (a.col === null || a.row === null)) throw bad();
  if ((a.col === null) !== (b.col === null) && a.col === null) throw bad();
  if (a.row === 0 || b.row === 0) throw bad();
  const openRows = a.row === null || b.row === null;
  const openCols = a.col === null || b.col === null;
  const r1 = a.row === null ? 1 : a.row;
  const r2 = b.row === null ? maxRows : b.row;
  const c1 = a.col === null ? 1 : a.col;
  const c2 = b.col === null ? maxCols : b.col;
  const row = Math.min(r1, r2);
  const col = Math.min(c1, c2);
  return {
    row,
    col,
    numRows: Math.abs(r2 - r1) + 1,
    numCols: Math.abs(c2 - c1) + 1,
    openRows: openRows && a.row === null && b.row === null,
    openCols: openCols && a.col === null && b.col === null,
  };
}

function toA1(row, col, numRows = 1, numCols = 1, { openRows = false, openCols = false } = {}) {
  if (openRows) return `${columnToLetters(col)}:${columnToLetters(col + numCols - 1)}`;
  if (openCols) return `${row}:${row + numRows - 1}`;
  const start = `${columnToLetters(col)}${row}`;
  if (numRows === 1 && numCols === 1) return start;
  return `${start}:${columnToLetters(col + numCols - 1)}${row + numRows - 1}`;
}

function quoteSheetName(name) {
  return /^[A-Za-z_][A-Za-z0-9_]*$/.test(name) ? name : `'${name.replace(/'/g, "''")}'`;
}

module.exports = { columnToLetters, lettersToColumn, splitSheet, parseRef, toA1, quoteSheetName };
