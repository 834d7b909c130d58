// Attribution headers of the outreach service (docs/services.md, Outreach: authentication and attribution).
// Non-secret, best-effort: a failure here never blocks a request, it only drops headers.
//
//   X-Svc-Install-Id      an anonymous id made once with Utilities.getUuid() and kept in the user's
//                         properties under INSTALL_ID_PROPERTY. A stored value that is not a UUID is damaged:
//                         then NO attribution header is sent (nothing is invented or overwritten). It is made
//                         by ensureInstallId() when Settings are saved or a menu action runs: custom functions
//                         read the owner's user properties but may not write them, so the id must exist
//                         before the owner's formulas need it.
//   X-Svc-Skill-Version   ADDON_VERSION (package.json's version)
//   X-Svc-Skill-Runtime   'google-apps-script'
//   X-Svc-Source-Type, X-Svc-Source-Package, X-Svc-Channel-Code, X-Svc-Campaign-Id
//                         only when a channel is configured: script property CHANNEL_PROPERTY holding JSON
//                         {sourceType, sourcePackage, channelCode, campaignId} (each optional). Damaged JSON,
//                         a non-text value, or a value that looks like a secret or an address (contains '@',
//                         equals or contains an API key, control or non-ASCII characters, longer than 128)
//                         drops all four. An organic install sends none of them.
// The phone-check service has no attribution headers: these go to the outreach service only.
import { ADDON_VERSION } from './version';

export const INSTALL_ID_PROPERTY = 'attribution.installId';
export const CHANNEL_PROPERTY = 'attribution.channel';
const SKILL_RUNTIME = 'google-apps-script';

export const ATTRIBUTION_HEADERS = {
  installId: 'X-Svc-Install-Id',
  skillVersion: 'X-Svc-Skill-Version',
  skillRuntime: 'X-Svc-Skill-Runtime',
  sourceType: 'X-Svc-Source-Type',
  sourcePackage: 'X-Svc-Source-Package',
  channelCode: 'X-Svc-Channel-Code',
  campaignId: 'X-Svc-Campaign-Id',
} as const;

const UUID_PATTERN = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const CHANNEL_FIELDS = ['sourceType', 'sourcePackage', 'channelCode', 'campaignId'] as const;

interface AttributionChannel {
  sourceType?: string;
  sourcePackage?: string;
  channelCode?: string;
  campaignId?: string;
}

function isUuid(value: string): boolean {
  return UUID_PATTERN.test(value);
}

/**
 * The install id: read, or made and stored on first use. Undefined when the stored value is damaged or the
 * properties cannot be read or written (e.g. a context without PropertiesService).
 */
function installId(): string | undefined {
  try {
    const store = PropertiesService.getUserProperties();
    const stored = store.getProperty(INSTALL_ID_PROPERTY);
    if (stored !== null && stored !== '') return isUuid(stored) ? stored.toLowerCase() : undefined;
    const made = Utilities.getUuid();
    if (!isUuid(made)) return undefined;
    store.setProperty(INSTALL_ID_PROPERTY, made);
    return made.toLowerCase();
  } catch {
    return undefined;
  }
}

/** Makes the install id if there is none yet (in an execution that may write user properties). */
export function ensureInstallId(): void {
  installId();
}

/** A value that may travel in a header: short printable ASCII, no address, no secret. */
function isSafeHeaderValue(value: string, secrets: readonly string[]): boolean {
  if (value === '' || value.length > 128) return false;
  if (!/^[\x20-\x7E]+$/.test(value)) return false;
  if (value.includes('@')) return false;
  return !secrets.some(
    (secret) => secret !== '' && (value === secret || (secret.length >= 4 && value.includes(secret))),
  );
}

/** Parses the channel JSON; undefined when absent, damaged or unsafe. */
export function parseChannel(
  raw: string | null | undefined,
  secrets: readonly string[],
): AttributionChannel | undefined {
  if (raw === null || raw === undefined || raw.trim() === '') return undefined;
  let parsed: unknown;
  try {
    parsed = JSON.parse(raw);
  } catch {
    return undefined;
  }
  if (!parsed || typeof parsed !== 'object' || Array.isArray(parsed)) return undefined;
  const channel: AttributionChannel = {};
  for (const field of CHANNEL_FIELDS) {
    const value = (parsed as Record<string, unknown>)[field];
    if (value === undefined || value === null || value === '') continue;
    if (typeof value !== 'string' || !isSafeHeaderValue(value, secrets)) return undefined;
    channel[field] = value;
  }
  return Object.keys(channel).length > 0 ? channel : undefined;
}

/** The configured channel, or undefined (organic install, damaged data, no access). */
function readChannel(secrets: readonly string[]): AttributionChannel | undefined {
  try {
    return parseChannel(PropertiesService.getScriptProperties().getProperty(CHANNEL_PROPERTY), secrets);
  } catch {
    return undefined;
  }
}

/**
 * Headers for one outreach request. `secrets` are the API keys in use: no header value may equal or contain
 * one. Never throws.
 */
export function attributionHeaders(secrets: readonly string[]): Record<string, string> {
  try {
    const id = installId();
    if (!id) return {};
    const headers: Record<string, string> = {
      [ATTRIBUTION_HEADERS.installId]: id,
      [ATTRIBUTION_HEADERS.skillVersion]: ADDON_VERSION,
      [ATTRIBUTION_HEADERS.skillRuntime]: SKILL_RUNTIME,
    };
    const channel = readChannel(secrets);
    if (channel) {
      for (const field of CHANNEL_FIELDS) {
        const value = channel[field];
        if (value) headers[ATTRIBUTION_HEADERS[field]] = value;
      }
    }
    for (const [name, value] of Object.entries(headers)) {
      if (!isSafeHeaderValue(value, secrets)) delete headers[name];
    }
    return headers;
  } catch {
    return {};
  }
}
