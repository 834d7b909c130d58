// sheets: what other folders use of it (the only file they import).
export { addressKey } from './address';
export {
  cellText,
  type CellValue,
  dateCell,
  listCell,
  numberCell,
  textCell,
  wholeNumberCell,
  wholeNumberOf,
} from './cells';
export {
  COMPANIES,
  CONTACTS,
  DO_NOT_CONTACT,
  MAIL_COLUMNS,
  PROFILES,
  SUMMARY_ANSWER_COLUMNS,
  TRACKING,
  TRACKING_SUMMARY,
} from './layouts';
export { lastListRow, listEnd } from './list-block';
export {
  isMailColumnHeader,
  mailColumns,
  mailIdColumn,
  readListStates,
  readMailView,
  type SheetView,
  stateCell,
  writeStatesByMailId,
} from './mail-view';
export {
  idOf,
  isFinal,
  isQueued,
  type MailState,
  NO_STATE,
  notSent,
  parseState,
  type SkipCode,
  skipped,
  type Skipped,
  stateText,
  type WaitCode,
} from './mail-state';
export { MAIL_STATUS_TEXTS } from './mail-words';
export {
  isRecipientHeader,
  type ListRow,
  MailingList,
  RecipientColumnMissing,
  ViewNotWritten,
} from './mailing-list';
export { splitName } from './person-name';
export {
  a1Notation,
  activeSelection,
  columnName,
  hiddenRows,
  type SelectedArea,
  selectedRows,
  type Selection,
} from './selection';
export { Table } from './table';
export {
  HeaderMovedError,
  headerCells,
  normalizeHeader,
  type PlacedColumn,
  type TableLayout,
  type TableRow,
} from './table-layout';
