// The entry points that need a guard (entry-guards.ts), each under a name of its own: src/index.ts
// re-exports them under the names Apps Script calls. A declaration named like the feature it guards would
// make the bundler rename one of them (continueJob$1).
import { getComposeState, previewMail, saveTemplate, sendTestMail, showComposeDialog } from './mail/compose';
import { continueJob, jobEndShown, jobProgress, stopJob } from './jobs/continuation';
import { customFunction, menuAction, pageEndpoint } from './entry-guards';
import { checkSelectedPhones } from './phone/phone-check';
import { openSearchSidebar, searchCompanies } from './prospecting/search';
import { sendAllUnsentRows, sendSelectedRows } from './mail/send';
import {
  getSettingsView,
  restoreDefaultAddressesFromDialog,
  saveSettingsFromDialog,
  showSettingsDialog,
} from './settings';
import { checkSavedKeys, testConnection } from './settings-connection';
import { refreshTracking } from './tracking/tracking';
import { setAutoRefresh, toggleAutoRefresh } from './tracking/tracking-auto';
import { showMailDetail } from './tracking/tracking-mail';
import { unlockSelectedCompanies } from './prospecting/unlock';
import { addSelectedToDoNotContact } from './mail/do-not-contact';
import { addNextContacts } from './mail/next-contact';
import { cancelScheduledSend, scheduleSend } from './schedule/send-later';
import { cancelTimedSend } from './schedule/cancel';
import { freeStorage } from './storage';
import { phoneCheckFunction, phoneCreditsFunction } from './phone/phone-functions';
import {
  prospectBalance,
  prospectContacts,
  prospectProfile,
  prospectSearch,
  prospectTask,
} from './prospecting/prospect-functions';
import type { ScopeName } from '../platform/consent';

/** The permissions an entry point needs besides the document (and, for a menu action, the dialogs). */
const NONE: ScopeName[] = [];
const FETCH: ScopeName[] = ['fetch'];
const TRIGGERS: ScopeName[] = ['triggers'];
const TIMED: ScopeName[] = ['fetch', 'triggers'];

// Menu actions.
export const settingsFromMenu = menuAction('Settings', NONE, showSettingsDialog);
export const searchSidebarFromMenu = menuAction('Search companies', NONE, openSearchSidebar);
export const unlockFromMenu = menuAction('Unlock companies', FETCH, unlockSelectedCompanies);
export const checkPhonesFromMenu = menuAction('Phone check', FETCH, checkSelectedPhones);
export const composeFromMenu = menuAction('Compose e-mail', NONE, showComposeDialog);
export const sendSelectedFromMenu = menuAction('Send e-mails', FETCH, sendSelectedRows);
export const sendAllUnsentFromMenu = menuAction('Send e-mails', FETCH, sendAllUnsentRows);
export const refreshTrackingFromMenu = menuAction('Refresh tracking', FETCH, refreshTracking);
export const autoRefreshFromMenu = menuAction('Auto-refresh tracking', TIMED, toggleAutoRefresh);
export const showMailFromMenu = menuAction('Show mail', FETCH, showMailDetail);
export const doNotContactFromMenu = menuAction('Do not contact', NONE, addSelectedToDoNotContact);
export const nextContactFromMenu = menuAction('Next contact after a bounce', NONE, addNextContacts);
export const cancelTimedSendFromMenu = menuAction(
  'Cancel a waiting or scheduled send',
  TRIGGERS,
  cancelTimedSend,
);
export const freeStorageFromMenu = menuAction('Free add-on storage', NONE, freeStorage);

// google.script.run endpoints.
export const settingsForPage = pageEndpoint('Settings', NONE, getSettingsView);
export const saveSettingsForPage = pageEndpoint('Settings', NONE, saveSettingsFromDialog);
export const restoreAddressesForPage = pageEndpoint('Settings', NONE, restoreDefaultAddressesFromDialog);
export const testConnectionForPage = pageEndpoint('Test connection', FETCH, testConnection);
export const checkSavedKeysForPage = pageEndpoint('Checking the keys', FETCH, checkSavedKeys);
export const searchForPage = pageEndpoint('Search', FETCH, searchCompanies);
export const continueJobForPage = pageEndpoint('The progress dialog', FETCH, continueJob);
export const composeStateForPage = pageEndpoint('Compose e-mail', NONE, getComposeState);
export const saveTemplateForPage = pageEndpoint('Compose e-mail', NONE, saveTemplate);
export const previewMailForPage = pageEndpoint('The preview', NONE, previewMail);
export const sendTestMailForPage = pageEndpoint('Send test mail', FETCH, sendTestMail);
export const jobProgressForPage = pageEndpoint('The progress dialog', NONE, jobProgress);
export const scheduleSendForPage = pageEndpoint('Send later', TIMED, scheduleSend);
export const cancelScheduledSendForPage = pageEndpoint(
  'Cancel the scheduled send',
  TRIGGERS,
  cancelScheduledSend,
);
export const stopJobForPage = pageEndpoint('Stop', NONE, stopJob);
export const jobEndShownForPage = pageEndpoint('The progress dialog', NONE, jobEndShown);
/** Only a true turns auto-refresh on. */
export const setAutoRefreshForPage = pageEndpoint('Auto-refresh', TIMED, (on: unknown) =>
  setAutoRefresh(on === true),
);

// Custom functions (each reaches a service with the owner's key).
export const balanceFormula = customFunction('=PROSPECT_BALANCE', FETCH, prospectBalance);
export const searchFormula = customFunction('=PROSPECT_SEARCH', FETCH, prospectSearch);
export const profileFormula = customFunction('=PROSPECT_PROFILE', FETCH, prospectProfile);
export const contactsFormula = customFunction('=PROSPECT_CONTACTS', FETCH, prospectContacts);
export const phoneCheckFormula = customFunction('=PHONE_CHECK', FETCH, phoneCheckFunction);
export const phoneCreditsFormula = customFunction('=PHONE_CREDITS', FETCH, phoneCreditsFunction);
export const taskFormula = customFunction('=PROSPECT_TASK', FETCH, prospectTask);
