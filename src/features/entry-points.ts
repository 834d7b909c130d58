// The entry points that need a guard (entry-guards.ts), each under the name Apps Script calls (src/index.ts
// re-exports it as it is). Where the feature has that name too, the guard adds the surface's suffix
// (continueJobForPage, unlockSelectedCompaniesFromMenu) and index.ts re-exports it under the plain name: this
// module imports the feature, and cannot declare a second continueJob. test/bundle checks it.
import {
  getComposeState,
  previewMail,
  saveTemplate,
  sendTestMail,
  showComposeDialog,
  sendAllUnsentRows,
  sendSelectedRows,
  addNextContacts,
  resumePausedList,
} from './mail';
import { continueJob, jobEndShown, jobProgress, stopJob } from './job-registry';
import { customFunction, menuAction, pageEndpoint, resumeMenuAction } from './entry-guards';
import { checkSelectedPhones, phoneCheckFunction, phoneCreditsFunction } from './phone';
import {
  openSearchSidebar,
  searchCompanies,
  unlockSelectedCompanies,
  confirmUnlock,
  prospectBalance,
  prospectContacts,
  prospectProfile,
  prospectSearch,
  prospectTask,
} from './prospecting';
import { showSettingsDialog } from './settings';
import {
  checkSavedKeys,
  getSettingsView,
  restoreDefaultAddressesFromDialog,
  saveSettingsFromDialog,
  testConnection,
} from './settings-connection';
import { refreshTracking, toggleAutoRefresh, showMailDetail } from './tracking';
import { addSelectedToDoNotContact } from './outbox';
import { cancelScheduledSend, scheduleSend, cancelWaitingOrScheduledSend } from './schedule';
import { freeStorage } from './storage';
import { stopSelectedFollowUps, stopSheetFollowUps } from './sequence';
import { type ScopeName } from '../platform';

/** The permissions an entry point needs besides the document (and, for a menu action, the dialogs). */
const NONE: ScopeName[] = [];
const FETCH: ScopeName[] = ['fetch'];
const TRIGGERS: ScopeName[] = ['triggers'];
const HOURLY: ScopeName[] = ['fetch', 'triggers'];

// Menu actions.
export const showSettings = menuAction('Settings', NONE, showSettingsDialog);
export const showSearchSidebar = menuAction('Search companies', NONE, openSearchSidebar);
export const unlockSelectedCompaniesFromMenu = menuAction('Unlock companies', FETCH, unlockSelectedCompanies);
export const checkSelectedPhonesFromMenu = menuAction('Phone check', FETCH, checkSelectedPhones);
export const showComposeDialogFromMenu = menuAction('Compose e-mail', NONE, showComposeDialog);
export const sendSelectedRowsFromMenu = menuAction('Send e-mails', FETCH, sendSelectedRows);
export const sendAllUnsentRowsFromMenu = menuAction('Send e-mails', FETCH, sendAllUnsentRows);
export const refreshTrackingFromMenu = menuAction('Refresh tracking', FETCH, refreshTracking);
export const toggleAutoRefreshFromMenu = menuAction('Auto-refresh tracking', HOURLY, toggleAutoRefresh);
export const showMailDetailFromMenu = menuAction('Show mail', FETCH, showMailDetail);
export const addToDoNotContact = menuAction('Do not contact', NONE, addSelectedToDoNotContact);
export const addNextContactForFailed = menuAction('Next contact after a bounce', NONE, addNextContacts);
export const resumePausedListFromMenu = resumeMenuAction('Resume a paused list', NONE, resumePausedList);
export const cancelWaitingOrScheduledSendFromMenu = menuAction(
  'Cancel a waiting or scheduled send',
  TRIGGERS,
  cancelWaitingOrScheduledSend,
);
export const stopSelectedFollowUpsFromMenu = menuAction('Stop follow-ups', NONE, stopSelectedFollowUps);
export const stopSheetFollowUpsFromMenu = menuAction('Stop follow-ups', NONE, stopSheetFollowUps);
export const freeAddonStorage = menuAction('Free add-on storage', NONE, freeStorage);

// google.script.run endpoints.
export const getSettings = pageEndpoint('Settings', NONE, getSettingsView);
export const saveSettingsForPage = pageEndpoint('Settings', NONE, saveSettingsFromDialog);
export const restoreDefaultAddressesForPage = pageEndpoint(
  'Settings',
  NONE,
  restoreDefaultAddressesFromDialog,
);
export const testConnectionForPage = pageEndpoint('Test connection', FETCH, testConnection);
export const checkSavedKeysForPage = pageEndpoint('Checking the keys', FETCH, checkSavedKeys);
export const searchCompaniesForPage = pageEndpoint('Search', FETCH, searchCompanies);
export const confirmUnlockForPage = pageEndpoint('Unlock companies', FETCH, confirmUnlock);
export const continueJobForPage = pageEndpoint('The progress dialog', FETCH, continueJob);
export const getComposeStateForPage = pageEndpoint('Compose e-mail', NONE, getComposeState);
export const saveTemplateForPage = pageEndpoint('Compose e-mail', NONE, saveTemplate);
export const previewMailForPage = pageEndpoint('The preview', NONE, previewMail);
export const sendTestMailForPage = pageEndpoint('Send test mail', FETCH, sendTestMail);
export const getJobProgress = pageEndpoint('The progress dialog', NONE, jobProgress);
export const scheduleSendForPage = pageEndpoint('Schedule a send', HOURLY, scheduleSend);
export const cancelScheduledSendForPage = pageEndpoint(
  'Cancel the scheduled send',
  TRIGGERS,
  cancelScheduledSend,
);
export const stopJobForPage = pageEndpoint('Stop', NONE, stopJob);
export const jobEndShownForPage = pageEndpoint('The progress dialog', NONE, jobEndShown);

// Custom functions (each reaches a service with the owner's key).
export const PROSPECT_BALANCE = customFunction('=PROSPECT_BALANCE', FETCH, prospectBalance);
export const PROSPECT_SEARCH = customFunction('=PROSPECT_SEARCH', FETCH, prospectSearch);
export const PROSPECT_PROFILE = customFunction('=PROSPECT_PROFILE', FETCH, prospectProfile);
export const PROSPECT_CONTACTS = customFunction('=PROSPECT_CONTACTS', FETCH, prospectContacts);
export const PHONE_CHECK = customFunction('=PHONE_CHECK', FETCH, phoneCheckFunction);
export const PHONE_CREDITS = customFunction('=PHONE_CREDITS', FETCH, phoneCreditsFunction);
export const PROSPECT_TASK = customFunction('=PROSPECT_TASK', FETCH, prospectTask);
