// The add-on menu. Runs in AuthMode.NONE too: it may only build the menu, never touch a service.
export function buildMenu(): void {
  SpreadsheetApp.getUi()
    .createAddonMenu()
    .addItem('Search companies…', 'showSearchSidebar')
    .addItem('Unlock selected companies', 'unlockSelectedCompanies')
    .addSeparator()
    .addItem('Check phone numbers in selection', 'checkSelectedPhones')
    .addSeparator()
    .addItem('Compose e-mail…', 'showComposeDialog')
    .addItem('Send e-mails to selected rows', 'sendSelectedRows')
    .addItem('Add selected to Do not contact', 'addToDoNotContact')
    .addItem('Add next contact for failed mails', 'addNextContactForFailed')
    .addItem('Cancel a waiting or scheduled send', 'cancelTimedSend')
    .addSeparator()
    .addItem('Refresh tracking', 'refreshTracking')
    .addItem('Auto-refresh tracking: on / off', 'toggleAutoRefresh')
    .addItem('Show mail', 'showMailDetail')
    .addSeparator()
    .addItem('Settings…', 'showSettings')
    .addItem('Free add-on storage', 'freeAddonStorage')
    .addToUi();
}
