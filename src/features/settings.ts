// Settings… and ensureKey, the guard every action uses (an action started before its key is set opens Settings,
// saying why, instead of failing). The dialog's view and saving, and what it asks the services, are
// settings-connection.ts. It never shows a key: the dialog gets the masked settings.
import { ensureInstallId, keyOf, readSettings, type Service } from '../platform';
import { scriptJson, showDialogFile } from '../ui';

/** Menu: Settings… (a menu click passes no text: there is no reason to show then). */
export function showSettingsDialog(reason: unknown = ''): void {
  ensureInstallId(); // a menu execution may write user properties; custom functions may not
  const shown = typeof reason === 'string' ? reason : '';
  showDialogFile('settings', 'Outreach settings', { reason: scriptJson(shown) }, { width: 420, height: 620 });
}

/** True when the key is set; otherwise opens Settings saying what is missing. */
export function ensureKey(service: Service): boolean {
  if (keyOf(readSettings(), service)) return true;
  const name = service === 'outreach' ? 'prospecting and outreach' : 'phone checking';
  showSettingsDialog(`Add your ${name} API key first, then run the action again.`);
  return false;
}
