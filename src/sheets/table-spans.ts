// Where Table.update writes: the spans of rows of one run of adjacent columns, cut at the cells never to be
// written (a formula, an array formula's output: list-block.ts).
import type { CellValue } from './cells';
import type { ColumnSpec, TableLayout, TableRow } from './table-layout';

type Sheet = GoogleAppsScript.Spreadsheet.Sheet;

/** Adjacent sheet columns written together. */
export type ColumnRun = Array<{ key: string; column: number; spec?: ColumnSpec }>;

export function spanIsKnown(byRow: Map<number, TableRow>, first: number, last: number): boolean {
  for (let row = first; row <= last; row++) if (!byRow.has(row)) return false;
  return true;
}

/**
 * The row spans to write in first..last: cut at rows with a cell never to be written, each trimmed to its
 * first and last changed row.
 */
export function spans(
  first: number,
  last: number,
  blockedRow: (row: number) => boolean,
  changed: (row: number) => boolean,
): Array<[number, number]> {
  const out: Array<[number, number]> = [];
  let from = 0;
  let to = 0;
  for (let row = first; row <= last + 1; row++) {
    if (row > last || blockedRow(row)) {
      if (from) out.push([from, to]);
      from = 0;
    } else if (changed(row)) {
      if (!from) from = row;
      to = row;
    }
  }
  return out;
}

/** The table's columns among `keys`, grouped into runs of adjacent sheet columns. */
export function columnRuns(
  keys: Set<string>,
  columnOf: Map<string, number>,
  layout: TableLayout,
): ColumnRun[] {
  const columns = [...keys]
    .filter((key) => columnOf.has(key))
    .map((key) => ({
      key,
      column: columnOf.get(key) as number,
      spec: layout.columns.find((c) => c.key === key),
    }))
    .sort((a, b) => a.column - b.column);
  const runs: ColumnRun[] = [];
  for (const entry of columns) {
    const run = runs[runs.length - 1];
    if (run && run[run.length - 1].column === entry.column - 1) run.push(entry);
    else runs.push([entry]);
  }
  return runs;
}

/** The changed cells of rows where the run has a cell never to be written: each on its own (rare). */
export function writeAroundGuards(
  sheet: Sheet,
  run: ColumnRun,
  span: {
    first: number;
    last: number;
    blocked: (row: number, i: number) => boolean;
    changes: Map<number, Record<string, CellValue>>;
  },
): void {
  for (let row = span.first; row <= span.last; row++) {
    const change = span.changes.get(row);
    if (!change || !run.some((_, i) => span.blocked(row, i))) continue;
    run.forEach(({ key, column }, i) => {
      if (key in change && !span.blocked(row, i))
        sheet.getRange(row, column, 1, 1).setValues([[change[key]]]);
    });
  }
}
