// features/prospecting: what other folders use of it (the only file they import).
export {
  prospectBalance,
  prospectContacts,
  prospectProfile,
  prospectSearch,
  prospectTask,
} from './prospect-functions';
export { openSearchSidebar, searchCompanies } from './search';
export { unlockSelectedCompanies } from './unlock';
export { UNLOCK_JOB } from './unlock-job';
export { confirmUnlock } from './unlock-question';
