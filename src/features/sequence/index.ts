// features/sequence: what other folders use of it (the only file they import).
export { type Elsewhere, mailedRecently, peopleElsewhere } from './people';
export { isSequenceHeader, opensNote, REPLIED_HEADER, writeSequence } from './sequence-column';
export { startFollowUps, stopSelectedFollowUps, stopSheetFollowUps } from './sequence-control';
export { companyOf, recordStops } from './sequence-eligibility';
export { runMySequences } from './sequence-run';
export {
  sequenceCostLine,
  sequenceNote,
  sequenceSummary,
  sequenceText,
  type SequenceView,
  stepLines,
} from './sequence-texts';
