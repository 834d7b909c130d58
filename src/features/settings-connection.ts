// The Settings dialog's server side: its view and saving (with the switches their features own: the phone
// formulas' consent, reply detection), and what it asks the services: Test connection (both balances, or what
// to change) and the check of a key just saved (one free request per service whose key or address changed), so
// a key the service refuses is never left at "Saved." and never replaces the key saved before. Errors are said in the
// dialog's own place: "the key above", not "in Extensions › Outreach › Settings", where the user already is.
import { ApiError, type Balance, usableEdm } from '../api';
import {
  ensureInstallId,
  keepReplacedKeys,
  keyOf,
  maskKey,
  readSettings,
  restoreDefaultAddresses,
  saveSettings,
  type Settings,
  type SettingsPatch,
  type SettingsView,
  takeReplacedKey,
  type Service,
  count,
  formatCount,
  viewSettings,
} from '../platform';
import { outreachClient, phoneClient } from './clients';
import { replyDetection, type ReplyDetectionView, setReplyDetection } from './inbox';
import { formulasMaySpend, setFormulasMaySpend } from './phone';
import { asClause, whenText } from './words';
import { describe } from './errors';

interface ConnectionReport {
  ok: boolean;
  message: string;
  lines: Array<[string, string]>;
}

const SERVICE_LABEL: Record<Service, string> = { outreach: 'Outreach', phone: 'Phone' };

/**
 * Balance of both services, or the exact error of each, with what the dialog holds: a key typed (not saved
 * yet) and the addresses shown are tested, else the saved ones. Nothing is saved.
 */
export function testConnection(typed?: unknown): ConnectionReport {
  const lines: Array<[string, string]> = [];
  const problems: string[] = [];
  const notes: string[] = [];
  const fields = typedFields(typed);
  const settings: Settings = { ...readSettings(), ...fields };
  if (fields.outreachApiKey || fields.phoneApiKey)
    notes.push('Tested with the key typed above, not saved yet: Save keeps it.');
  if (!settings.outreachApiKey) problems.push('Outreach: no API key saved.');
  else {
    try {
      const client = outreachClient({}, settings);
      const b = client.balance();
      lines.push(...balanceLines(b));
      if (usableEdm(b) === 0) notes.push(noEdmText(client.pricingUrl));
    } catch (error) {
      problems.push(`Outreach: ${describeInSettings(error, settings.outreachBaseUrl)}`);
    }
  }
  if (!settings.phoneApiKey) problems.push('Phone: no API key saved.');
  else {
    try {
      lines.push(['Phone credits', formatCount(phoneClient({}, settings).credits())]);
    } catch (error) {
      problems.push(`Phone: ${describeInSettings(error, settings.phoneBaseUrl)}`);
    }
  }
  return problems.length === 0
    ? { ok: true, message: ['Both services answered.', ...notes].join('\n'), lines }
    : { ok: false, message: [...problems, ...notes].join('\n'), lines };
}

/** The keys typed and the addresses shown in the dialog (strings only, trimmed; an empty key: the saved one). */
function typedFields(typed: unknown): Partial<Settings> {
  const fields: Partial<Settings> = {};
  if (!typed || typeof typed !== 'object') return fields;
  const given = typed as Record<string, unknown>;
  for (const name of ['outreachApiKey', 'phoneApiKey', 'outreachBaseUrl', 'phoneBaseUrl'] as const) {
    const value = typeof given[name] === 'string' ? (given[name] as string).trim() : '';
    if (value) fields[name] = value;
  }
  return fields;
}

/**
 * After a save: asks each service in `services` (those whose key or address the save changed) one free
 * question with the saved settings — the outreach balance, the phone credits — and says what it answered.
 * A changed address where nothing answers is not kept: `previous` (the addresses before the save) is put
 * back, and the answer says which address could not be reached. A new key the service refuses is not kept
 * either: the key it replaced is put back.
 */
export function checkSavedKeys(services: unknown, previous?: unknown): ConnectionReport {
  const settings = readSettings();
  const replaced = { outreach: takeReplacedKey('outreach'), phone: takeReplacedKey('phone') };
  const asked = (Array.isArray(services) ? services : []).filter(
    (s): s is Service => (s === 'outreach' || s === 'phone') && keyOf(settings, s) !== '',
  );
  const results = asked.map((service) => {
    const result = checkKey(settings, service);
    if (result.refusal) return keepReplacedKey(service, replaced[service], result);
    return result.unreachable ? keepPrevious(settings, service, previous, result) : result;
  });
  const ok = results.every((r) => r.ok);
  const said = results.map((r) => (asked.length > 1 ? `${SERVICE_LABEL[r.service]}: ${r.text}` : r.text));
  const head = ok ? 'Saved.' : results.some((r) => r.reverted) ? 'Not all saved:' : 'Saved, but:';
  return { ok, message: [head, ...said].join(asked.length > 1 || !ok ? '\n' : ' '), lines: [] };
}

interface KeyCheck {
  service: Service;
  ok: boolean;
  text: string;
  /** Nothing answered at the address. */
  unreachable?: boolean;
  /** The service refused the key (401): its words. */
  refusal?: string;
  reverted?: boolean;
}

/** Puts back the key a save replaced when the service refuses the new one; the text says which key stays. */
function keepReplacedKey(service: Service, replaced: string, result: KeyCheck): KeyCheck {
  if (!replaced || !result.refusal) return result;
  try {
    saveSettings(service === 'outreach' ? { outreachApiKey: replaced } : { phoneApiKey: replaced });
  } catch {
    return result; // the key before cannot be saved any more: the new one stays, as said
  }
  return {
    ...result,
    reverted: true,
    text: `${asClause(result.refusal)}: the key you entered was not saved, and the key saved before (${maskKey(replaced)}) stays. Check the new key and paste it again.`,
  };
}

/** Puts back the address before the save when it differs; the text names the address not reached. */
function keepPrevious(settings: Settings, service: Service, previous: unknown, result: KeyCheck): KeyCheck {
  const field = service === 'outreach' ? 'outreachBaseUrl' : 'phoneBaseUrl';
  const tried = settings[field];
  const before = previous && typeof previous === 'object' ? (previous as Record<string, unknown>)[field] : '';
  if (typeof before !== 'string' || before === '' || before === tried) return result;
  try {
    saveSettings({ [field]: before });
  } catch {
    return result; // the address before cannot be saved any more: the new one stays, as said
  }
  return {
    ...result,
    reverted: true,
    text: `${result.text} ${tried} was not saved: the service address stays ${before}.`,
  };
}

function checkKey(settings: Settings, service: Service): KeyCheck {
  try {
    if (service === 'phone') {
      const credits = phoneClient({}, settings).credits();
      const text = `The phone-check service accepted the key (${count(credits, 'credit')}).`;
      return { service, ok: true, text };
    }
    const client = outreachClient({}, settings);
    const b = client.balance();
    const accepted = 'The Outreach service accepted the key.';
    if (usableEdm(b) === 0) return { service, ok: true, text: `${accepted} ${noEdmText(client.pricingUrl)}` };
    return { service, ok: true, text: accepted };
  } catch (error) {
    // Nothing answered at all (something else answering is said, and the address kept to be corrected).
    const unreachable = error instanceof ApiError && error.kind === 'network';
    const refusal = error instanceof ApiError && error.kind === 'auth' ? error.userMessage : undefined;
    const address = service === 'outreach' ? settings.outreachBaseUrl : settings.phoneBaseUrl;
    const text = describeInSettings(error, address);
    return { service, ok: false, unreachable, refusal, text };
  }
}

/** A key that answers but cannot send (the free plan has no EDM quota and no permission to send). */
function noEdmText(pricingUrl: string): string {
  return `This key has no e-mail credits (EDM), so it cannot send e-mail: sending needs e-mail credits or another plan (${pricingUrl}).`;
}

function balanceLines(b: Balance): Array<[string, string]> {
  return [
    ['Search points (for unlocks)', splitText(b.monthlyPoints, b.addonPoints)],
    ['E-mail credits (EDM)', splitText(b.monthlyEdm, b.addonEdm)],
    ['Monthly expiry', formatTimestamp(b.monthlyExpiresAt)],
  ];
}

/** An error as the Settings dialog says it: what to change points at the fields above. */
function describeInSettings(error: unknown, address = ''): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.kind === 'network' && address) {
    return `${asClause(error.userMessage)} at ${address}: check the service address above (or use Restore default addresses) and the connection.`;
  }
  if (error.kind === 'auth') return `${error.userMessage} Check the API key above.`;
  // "Nothing that speaks … answers at <address>: check the service address." already says what to do.
  if (error.kind === 'address') return `${asClause(error.userMessage)} above.`;
  if (error.kind === 'address-not-allowed')
    return `${error.userMessage} Change the service address above: nothing was sent.`;
  return describe(error);
}

/** "1,000 (600 monthly + 400 add-on)". */
function splitText(monthly: number, addon: number): string {
  return `${formatCount(monthly + addon)} (${formatCount(monthly)} monthly + ${formatCount(addon)} add-on)`;
}

function formatTimestamp(value: string | null | undefined): string {
  if (!value) return 'not shown';
  const date = new Date(value);
  return Number.isNaN(date.getTime()) ? value : whenText(date.getTime());
}

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
