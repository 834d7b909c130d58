// Settings and secrets. API keys live only in the user's PropertiesService store: never in a cell, a log,
// an error message or a URL. Reads and writes go through this module only.
import { allowedPrefixesText, isAllowedBaseUrl } from './url-allowlist';

export interface Settings {
  outreachApiKey: string;
  outreachBaseUrl: string;
  phoneApiKey: string;
  phoneBaseUrl: string;
  /** Where recipients write to unsubscribe: the {{Unsubscribe}} line of a mail ('' when not set). */
  unsubscribeAddress: string;
}

/** What the Settings dialog may show: keys masked, never the key itself. */
export interface SettingsView {
  outreachApiKey: string;
  outreachBaseUrl: string;
  phoneApiKey: string;
  phoneBaseUrl: string;
  outreachKeySet: boolean;
  phoneKeySet: boolean;
  unsubscribeAddress: string;
}

export type SettingsPatch = Partial<Settings>;

/** The two services, each with its own key and address. */
export type Service = 'outreach' | 'phone';

/** The API key of `service` among the settings. */
export function keyOf(settings: Settings, service: Service): string {
  return service === 'outreach' ? settings.outreachApiKey : settings.phoneApiKey;
}

// The addresses the build was made for: OUTREACH_BASE_URL and PHONE_BASE_URL at `npm run build`, else the
// example hosts (dev/build/service-addresses.mjs); the same build puts their prefixes in the manifest. Read when
// the settings are, never as the module loads (a module that merely imports platform/ needs no build constants).
declare const SERVICE_ADDRESSES: { readonly outreach: string; readonly phone: string };

const PROPERTY: Record<keyof Settings, string> = {
  outreachApiKey: 'settings.outreachApiKey',
  outreachBaseUrl: 'settings.outreachBaseUrl',
  phoneApiKey: 'settings.phoneApiKey',
  phoneBaseUrl: 'settings.phoneBaseUrl',
  unsubscribeAddress: 'settings.unsubscribeAddress',
};

class SettingsError extends Error {
  constructor(
    message: string,
    readonly field: keyof Settings,
  ) {
    super(message);
    this.name = 'SettingsError';
  }
}

export function readSettings(): Settings {
  const props = PropertiesService.getUserProperties().getProperties();
  return {
    outreachApiKey: props[PROPERTY.outreachApiKey] || '',
    outreachBaseUrl: props[PROPERTY.outreachBaseUrl] || SERVICE_ADDRESSES.outreach,
    phoneApiKey: props[PROPERTY.phoneApiKey] || '',
    phoneBaseUrl: props[PROPERTY.phoneBaseUrl] || SERVICE_ADDRESSES.phone,
    unsubscribeAddress: props[PROPERTY.unsubscribeAddress] || '',
  };
}

export function viewSettings(settings: Settings = readSettings()): SettingsView {
  return {
    outreachApiKey: maskKey(settings.outreachApiKey),
    outreachBaseUrl: settings.outreachBaseUrl,
    phoneApiKey: maskKey(settings.phoneApiKey),
    phoneBaseUrl: settings.phoneBaseUrl,
    outreachKeySet: settings.outreachApiKey !== '',
    phoneKeySet: settings.phoneApiKey !== '',
    unsubscribeAddress: settings.unsubscribeAddress,
  };
}

/**
 * Validates and stores what the patch holds; absent (undefined) fields are left as they are. An empty key
 * removes the key. Returns the masked view.
 */
export function saveSettings(patch: SettingsPatch): SettingsView {
  const updates: Record<string, string> = {};
  const removals: string[] = [];
  for (const field of ['outreachApiKey', 'phoneApiKey'] as const) {
    const value = patch[field];
    if (value === undefined || value === null) continue;
    const key = String(value).trim();
    if (key === '') removals.push(PROPERTY[field]);
    else if (/\s/.test(key) || key.length > 512) {
      throw new SettingsError('An API key is one word without spaces: paste it again.', field);
    } else updates[PROPERTY[field]] = key;
  }
  for (const field of ['outreachBaseUrl', 'phoneBaseUrl'] as const) {
    const value = patch[field];
    if (value === undefined || value === null) continue;
    updates[PROPERTY[field]] = validateBaseUrl(String(value), field);
  }
  const unsubscribe = patch.unsubscribeAddress;
  if (unsubscribe !== undefined && unsubscribe !== null) {
    const address = String(unsubscribe).trim();
    if (address === '') removals.push(PROPERTY.unsubscribeAddress);
    else if (!/^[^\s@<>"]+@[^\s@<>"]+\.[^\s@<>"]+$/.test(address) || address.length > 254) {
      throw new SettingsError(
        'Unsubscribe address: enter one e-mail address, such as unsubscribe@example.com.',
        'unsubscribeAddress',
      );
    } else updates[PROPERTY.unsubscribeAddress] = address;
  }
  const store = PropertiesService.getUserProperties();
  if (Object.keys(updates).length > 0) store.setProperties(updates);
  for (const property of removals) store.deleteProperty(property);
  return viewSettings();
}

// The key a save replaced, kept until the new one is tried (settings-connection.ts checkSavedKeys): a key the
// service refuses is put back to this one, so a mistyped key never replaces a working one.
const REPLACED_KEY: Record<Service, string> = {
  outreach: 'settings.replaced.outreachApiKey',
  phone: 'settings.replaced.phoneApiKey',
};

/** Keeps, for each service whose key differs between the two settings, the key before; forgets the others. */
export function keepReplacedKeys(before: Settings, after: Settings): void {
  const store = PropertiesService.getUserProperties();
  for (const service of ['outreach', 'phone'] as const) {
    const old = keyOf(before, service);
    const now = keyOf(after, service);
    if (old !== '' && now !== '' && old !== now) store.setProperty(REPLACED_KEY[service], old);
    else store.deleteProperty(REPLACED_KEY[service]);
  }
}

/** The key the last save replaced for `service` ('' when none), forgotten once read. */
export function takeReplacedKey(service: Service): string {
  const store = PropertiesService.getUserProperties();
  const key = store.getProperty(REPLACED_KEY[service]) || '';
  if (key) store.deleteProperty(REPLACED_KEY[service]);
  return key;
}

/** Both service addresses back to the add-on's defaults (the keys are kept). */
export function restoreDefaultAddresses(): SettingsView {
  const store = PropertiesService.getUserProperties();
  store.deleteProperty(PROPERTY.outreachBaseUrl);
  store.deleteProperty(PROPERTY.phoneBaseUrl);
  return viewSettings();
}

/**
 * A base URL under the manifest's urlFetchWhitelist (Apps Script refuses any other), without a trailing
 * slash. The deployed build allows the production https:// prefixes only; the local build adds loopback.
 */
function validateBaseUrl(raw: string, field: keyof Settings): string {
  const url = raw.trim().replace(/\/+$/, '');
  const label = field === 'phoneBaseUrl' ? 'Phone service address' : 'Outreach service address';
  if (!/^(https?):\/\/([^/?#\s:@]+)(:\d{1,5})?(\/[^?#\s]*)?$/i.test(url)) {
    throw new SettingsError(`${label}: enter a URL such as https://api.example.com`, field);
  }
  if (!isAllowedBaseUrl(url)) {
    throw new SettingsError(
      `${label}: ${url} is not allowed. Apps Script lets this add-on reach only addresses under ${allowedPrefixesText()}.`,
      field,
    );
  }
  return url;
}

export function maskKey(key: string): string {
  if (!key) return '';
  return key.length <= 8 ? '••••' : `••••${key.slice(-4)}`;
}
