// The add-on menu. Runs in AuthMode.NONE too: it may only build the menu, never touch a service.
export function buildMenu(_e?: GoogleAppsScript.Events.SheetsOnOpen): void {
  SpreadsheetApp.getUi().createAddonMenu().addItem('Settings…', 'showSettings').addToUi();
}
