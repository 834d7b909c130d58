// The Settings dialog (its view, saving, restoring the default addresses) and ensureKey, the guard every action
// uses (an action started before its key is set opens Settings, saying why, instead of failing); what the
// dialog asks the services is settings-connection.ts. It never shows a key: the dialog gets the masked settings.
import {
  ensureInstallId,
  formulasMaySpend,
  setFormulasMaySpend,
  keepReplacedKeys,
  keyOf,
  readSettings,
  restoreDefaultAddresses,
  saveSettings,
  type Service,
  type Settings,
  SettingsPatch,
  SettingsView,
  viewSettings,
} from '../platform';
import { scriptJson, showDialogFile } from '../ui';
import { replyDetection, type ReplyDetectionView, setReplyDetection } from './inbox';

/** What the Settings dialog shows: the masked settings and the user's phone-formula switch. */
interface SettingsDialogView extends SettingsView {
  phoneFormulasAllowed: boolean;
  /** "Detect replies in Gmail": shown only in a build that can read Gmail. */
  replyDetection: ReplyDetectionView;
}

/** What the Settings dialog saves: absent fields are kept. */
interface SettingsDialogPatch extends SettingsPatch {
  /** Formulas in this document may spend the saving user's phone-check credits (only the owner's counts). */
  allowPhoneFormulas?: boolean;
  /** Reply detection in Gmail (features/inbox), this user's switch. */
  detectReplies?: boolean;
}

/** Menu: Settings… (a menu click passes no text: there is no reason to show then). */
export function showSettingsDialog(reason: unknown = ''): void {
  ensureInstallId(); // a menu execution may write user properties; custom functions may not
  const shown = typeof reason === 'string' ? reason : '';
  showDialogFile('settings', 'Outreach settings', { reason: scriptJson(shown) }, { width: 420, height: 620 });
}

export function getSettingsView(): SettingsDialogView {
  return { ...viewSettings(), phoneFormulasAllowed: formulasMaySpend(), replyDetection: replyDetection() };
}

/**
 * After a save: the view, the services whose key or address changed (the dialog has them checked), and the
 * addresses before the save (an address nothing answers at is put back: settings-connection.ts).
 */
interface SavedSettingsView extends SettingsDialogView {
  check: Service[];
  previous: { outreachBaseUrl: string; phoneBaseUrl: string };
}

export function saveSettingsFromDialog(patch: SettingsDialogPatch): SavedSettingsView {
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
  const before = readSettings();
  saveSettings(clean);
  if (patch && typeof patch.allowPhoneFormulas === 'boolean') setFormulasMaySpend(patch.allowPhoneFormulas);
  if (patch && typeof patch.detectReplies === 'boolean') setReplyDetection(patch.detectReplies);
  // Made here, where user properties may be written, so the owner's formulas send it too.
  ensureInstallId();
  const after = readSettings();
  keepReplacedKeys(before, after); // a new key the service refuses is put back to this one (checkSavedKeys)
  const previous = { outreachBaseUrl: before.outreachBaseUrl, phoneBaseUrl: before.phoneBaseUrl };
  return { ...getSettingsView(), check: changedServices(before, after), previous };
}

/** Settings dialog: both service addresses back to the defaults; the services with a key are checked. */
export function restoreDefaultAddressesFromDialog(): SavedSettingsView {
  const before = readSettings();
  restoreDefaultAddresses();
  const after = readSettings();
  const previous = { outreachBaseUrl: before.outreachBaseUrl, phoneBaseUrl: before.phoneBaseUrl };
  return { ...getSettingsView(), check: changedServices(before, after), previous };
}

/** The services with a key whose key or address differs between the two settings. */
function changedServices(before: Settings, after: Settings): Service[] {
  const changed = (key: 'outreach' | 'phone'): boolean =>
    after[`${key}ApiKey`] !== '' &&
    (after[`${key}ApiKey`] !== before[`${key}ApiKey`] || after[`${key}BaseUrl`] !== before[`${key}BaseUrl`]);
  return (['outreach', 'phone'] as const).filter(changed);
}

/** True when the key is set; otherwise opens Settings saying what is missing. */
export function ensureKey(service: Service): boolean {
  if (keyOf(readSettings(), service)) return true;
  const name = service === 'outreach' ? 'prospecting and outreach' : 'phone checking';
  showSettingsDialog(`Add your ${name} API key first, then run the action again.`);
  return false;
}
