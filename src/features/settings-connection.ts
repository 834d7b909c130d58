// What the Settings dialog asks the services: Test connection (both balances, or what to change) and the
// check of a key just saved (one free request per service whose key or address changed), so a key the
// service refuses is never left at "Saved.". Errors are said in the dialog's own place: "the key above",
// not "in Extensions › Outreach › Settings", which is where the user already is.
import { ApiError } from '../api/errors';
import type { Balance } from '../api/outreach/outreach-schemas';
import { readSettings, type Settings } from '../platform/settings';
import { outreachClient, phoneClient } from './clients';
import { describe, type Service } from './settings';

export interface ConnectionReport {
  ok: boolean;
  message: string;
  lines: Array<[string, string]>;
}

const SERVICE_LABEL: Record<Service, string> = { outreach: 'Outreach', phone: 'Phone' };

/** Balance of both services, or the exact error of each. */
export function testConnection(): ConnectionReport {
  const lines: Array<[string, string]> = [];
  const problems: string[] = [];
  const notes: string[] = [];
  const settings = readSettings();
  if (!settings.outreachApiKey) problems.push('Outreach: no API key saved.');
  else {
    try {
      const client = outreachClient({}, settings);
      const b = client.balance();
      lines.push(...balanceLines(b));
      if (usableEdm(b) === 0) notes.push(noEdmText(client.pricingUrl));
    } catch (error) {
      problems.push(`Outreach: ${describeInSettings(error)}`);
    }
  }
  if (!settings.phoneApiKey) problems.push('Phone: no API key saved.');
  else {
    try {
      lines.push(['Phone credits', String(phoneClient({}, settings).credits())]);
    } catch (error) {
      problems.push(`Phone: ${describeInSettings(error)}`);
    }
  }
  return problems.length === 0
    ? { ok: true, message: ['Both services answered.', ...notes].join('\n'), lines }
    : { ok: false, message: [...problems, ...notes].join('\n'), lines };
}

/**
 * After a save: asks each service in `services` (those whose key or address the save changed) one free
 * question with the saved settings — the outreach balance, the phone credits — and says what it answered.
 */
export function checkSavedKeys(services: unknown): ConnectionReport {
  const settings = readSettings();
  const asked = (Array.isArray(services) ? services : []).filter(
    (s): s is Service => (s === 'outreach' || s === 'phone') && keyOf(settings, s) !== '',
  );
  const results = asked.map((service) => checkKey(settings, service));
  const ok = results.every((r) => r.ok);
  const said = results.map((r) => (asked.length > 1 ? `${SERVICE_LABEL[r.service]}: ${r.text}` : r.text));
  const head = ok ? 'Saved.' : 'Saved, but:';
  return { ok, message: [head, ...said].join(asked.length > 1 || !ok ? '\n' : ' '), lines: [] };
}

function checkKey(settings: Settings, service: Service): { service: Service; ok: boolean; text: string } {
  try {
    if (service === 'phone') {
      const credits = phoneClient({}, settings).credits();
      return { service, ok: true, text: `The phone-check service accepted the key (${credits} credits).` };
    }
    const client = outreachClient({}, settings);
    const b = client.balance();
    const accepted = 'The Outreach service accepted the key.';
    if (usableEdm(b) === 0) return { service, ok: true, text: `${accepted} ${noEdmText(client.pricingUrl)}` };
    return { service, ok: true, text: accepted };
  } catch (error) {
    return { service, ok: false, text: describeInSettings(error) };
  }
}

function keyOf(settings: Settings, service: Service): string {
  return service === 'outreach' ? settings.outreachApiKey : settings.phoneApiKey;
}

function usableEdm(b: Balance): number {
  return b.monthlyEdm + b.addonEdm;
}

/** A key that answers but cannot send (the free plan has no EDM quota and no permission to send). */
function noEdmText(pricingUrl: string): string {
  return `This key has no e-mail (EDM) quota, so it cannot send e-mail: sending needs EDM quota or another plan (${pricingUrl}).`;
}

function balanceLines(b: Balance): Array<[string, string]> {
  return [
    [
      'Search points',
      `${b.monthlyPoints + b.addonPoints} (${b.monthlyPoints} monthly + ${b.addonPoints} add-on)`,
    ],
    ['E-mail quota', `${usableEdm(b)} (${b.monthlyEdm} monthly + ${b.addonEdm} add-on)`],
    ['Monthly expiry', formatTimestamp(b.monthlyExpiresAt)],
  ];
}

/** An error as the Settings dialog says it: what to change points at the fields above. */
export function describeInSettings(error: unknown): string {
  if (!(error instanceof ApiError)) return describe(error);
  if (error.kind === 'auth') return `${error.userMessage} Check the API key above.`;
  // "Nothing that speaks … answers at <address>: check the service address." already says what to do.
  if (error.kind === 'address') return `${error.userMessage.replace(/\.$/, '')} above.`;
  if (error.kind === 'address-not-allowed')
    return `${error.userMessage} Change the service address above: nothing was sent.`;
  return describe(error);
}

function formatTimestamp(value: string | null | undefined): string {
  if (!value) return 'not shown';
  const date = new Date(value);
  return Number.isNaN(date.getTime())
    ? value
    : Utilities.formatDate(date, Session.getScriptTimeZone(), 'yyyy-MM-dd HH:mm');
}
