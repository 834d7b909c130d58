// Settings dialog, "Test connection", and the guard every action uses: an action started before its key
// is set opens Settings (saying why) instead of failing.
import { outreachClient } from './clients';
import { phoneClient } from './clients';
import { ApiError } from '../api/errors';
import { ensureInstallId } from '../platform/attribution';
import { formulasMaySpend, setFormulasMaySpend } from '../platform/formula-consent';
import { readSettings, saveSettings, SettingsPatch, SettingsView, viewSettings } from '../platform/settings';
import { scriptJson, showDialogFile } from '../ui/dialogs';

export type Service = 'outreach' | 'phone';

/** What the Settings dialog shows: the masked settings and the user's phone-formula switch. */
export interface SettingsDialogView extends SettingsView {
  phoneFormulasAllowed: boolean;
}

/** What the Settings dialog saves: absent fields are kept. */
export interface SettingsDialogPatch extends SettingsPatch {
  /** Formulas in this document may spend the saving user's phone-check credits (only the owner's counts). */
  allowPhoneFormulas?: boolean;
}

/** Menu: Settings… (a menu click passes no text: there is no reason to show then). */
export function showSettingsDialog(reason: unknown = ''): void {
  ensureInstallId(); // a menu execution may write user properties; custom functions may not
  const shown = typeof reason === 'string' ? reason : '';
  showDialogFile('settings', 'Outreach settings', { reason: scriptJson(shown) }, { width: 420, height: 620 });
}

export function getSettingsView(): SettingsDialogView {
  return { ...viewSettings(), phoneFormulasAllowed: formulasMaySpend() };
}

export function saveSettingsFromDialog(patch: SettingsDialogPatch): SettingsDialogView {
  const clean: SettingsPatch = {};
  const fields = [
    'outreachApiKey',
    'outreachBaseUrl',
    'phoneApiKey',
    'phoneBaseUrl',
    'unsubscribeAddress',
  ] as const;
  for (const field of fields) {
    if (patch && typeof patch[field] === 'string') clean[field] = patch[field];
  }
  saveSettings(clean);
  if (patch && typeof patch.allowPhoneFormulas === 'boolean') setFormulasMaySpend(patch.allowPhoneFormulas);
  // Made here, where user properties may be written, so the owner's formulas send it too.
  ensureInstallId();
  return getSettingsView();
}

/** True when the key is set; otherwise opens Settings saying what is missing. */
export function ensureKey(service: Service): boolean {
  const settings = readSettings();
  const key = service === 'outreach' ? settings.outreachApiKey : settings.phoneApiKey;
  if (key) return true;
  const name = service === 'outreach' ? 'prospecting and outreach' : 'phone checking';
  showSettingsDialog(`Add your ${name} API key first, then run the action again.`);
  return false;
}

export interface ConnectionReport {
  ok: boolean;
  message: string;
  lines: Array<[string, string]>;
}

/** Balance of both services, or the exact error of each. */
export function testConnection(): ConnectionReport {
  const lines: Array<[string, string]> = [];
  const problems: string[] = [];
  const settings = readSettings();
  if (!settings.outreachApiKey) problems.push('Outreach: no API key saved.');
  else {
    try {
      const b = outreachClient({}, settings).balance();
      lines.push([
        'Search points',
        `${b.monthlyPoints + b.addonPoints} (${b.monthlyPoints} monthly + ${b.addonPoints} add-on)`,
      ]);
      lines.push([
        'E-mail quota',
        `${b.monthlyEdm + b.addonEdm} (${b.monthlyEdm} monthly + ${b.addonEdm} add-on)`,
      ]);
      lines.push(['Monthly expiry', formatTimestamp(b.monthlyExpiresAt)]);
    } catch (error) {
      problems.push(`Outreach: ${describe(error)}`);
    }
  }
  if (!settings.phoneApiKey) problems.push('Phone: no API key saved.');
  else {
    try {
      lines.push(['Phone credits', String(phoneClient({}, settings).credits())]);
    } catch (error) {
      problems.push(`Phone: ${describe(error)}`);
    }
  }
  return problems.length === 0
    ? { ok: true, message: 'Both services answered.', lines }
    : { ok: false, message: problems.join('\n'), lines };
}

export function describe(error: unknown): string {
  if (error instanceof ApiError)
    return error.action ? `${error.userMessage} ${error.action}` : error.userMessage;
  return error instanceof Error ? error.message : String(error);
}

function formatTimestamp(value: string | null | undefined): string {
  if (!value) return 'not shown';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : Utilities.formatDate(date, Session.getScriptTimeZone(), 'yyyy-MM-dd HH:mm');
}
