// The entry points that need a guard (entry-guards.ts), each under a name of its own: src/index.ts
// re-exports them under the names Apps Script calls. A declaration named like the feature it guards would
// make the bundler rename one of them (continueJob$1).
import { getComposeState, previewMail, saveTemplate, sendTestMail, showComposeDialog } from './mail/compose';
import { continueJob, jobEndShown, jobProgress, stopJob } from './jobs/continuation';
import { menuAction, pageEndpoint } from './entry-guards';
import { checkSelectedPhones } from './phone/phone-check';
import { searchCompanies } from './prospecting/search';
import { sendAllUnsentRows, sendSelectedRows } from './mail/send';
import { getSettingsView, saveSettingsFromDialog } from './settings';
import { checkSavedKeys, testConnection } from './settings-connection';
import { refreshTracking } from './tracking/tracking';
import { setAutoRefresh, toggleAutoRefresh } from './tracking/tracking-auto';
import { showMailDetail } from './tracking/tracking-mail';
import { unlockSelectedCompanies } from './prospecting/unlock';
import { addSelectedToDoNotContact } from './mail/do-not-contact';
import { cancelScheduledSend, scheduleSend } from './schedule/send-later';
import { cancelTimedSend } from './schedule/cancel';
import { freeStorage } from './storage';

// Menu actions.
export const unlockFromMenu = menuAction('Unlock companies', unlockSelectedCompanies);
export const checkPhonesFromMenu = menuAction('Phone check', checkSelectedPhones);
export const composeFromMenu = menuAction('Compose e-mail', showComposeDialog);
export const sendSelectedFromMenu = menuAction('Send e-mails', sendSelectedRows);
export const sendAllUnsentFromMenu = menuAction('Send e-mails', sendAllUnsentRows);
export const refreshTrackingFromMenu = menuAction('Refresh tracking', refreshTracking);
export const autoRefreshFromMenu = menuAction('Auto-refresh tracking', toggleAutoRefresh);
export const showMailFromMenu = menuAction('Show mail', showMailDetail);
export const doNotContactFromMenu = menuAction('Do not contact', addSelectedToDoNotContact);
export const cancelTimedSendFromMenu = menuAction('Cancel a waiting or scheduled send', cancelTimedSend);
export const freeStorageFromMenu = menuAction('Free add-on storage', freeStorage);

// google.script.run endpoints.
export const settingsForPage = pageEndpoint(getSettingsView);
export const saveSettingsForPage = pageEndpoint(saveSettingsFromDialog);
export const testConnectionForPage = pageEndpoint(testConnection);
export const checkSavedKeysForPage = pageEndpoint(checkSavedKeys);
export const searchForPage = pageEndpoint(searchCompanies);
export const continueJobForPage = pageEndpoint(continueJob);
export const composeStateForPage = pageEndpoint(getComposeState);
export const saveTemplateForPage = pageEndpoint(saveTemplate);
export const previewMailForPage = pageEndpoint(previewMail);
export const sendTestMailForPage = pageEndpoint(sendTestMail);
export const jobProgressForPage = pageEndpoint(jobProgress);
export const scheduleSendForPage = pageEndpoint(scheduleSend);
export const cancelScheduledSendForPage = pageEndpoint(cancelScheduledSend);
export const stopJobForPage = pageEndpoint(stopJob);
export const jobEndShownForPage = pageEndpoint(jobEndShown);
/** Only a true turns auto-refresh on. */
export const setAutoRefreshForPage = pageEndpoint((on: unknown) => setAutoRefresh(on === true));
