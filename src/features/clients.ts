// The one place that reads the user's settings and builds the API clients from them: the clients get their
// key, base URL, the other service's key (to redact it from messages) and the attribution headers as
// arguments and read no property themselves, and errors.ts learns the keys to hide from what users see. A
// trigger or a test may pass settings it already holds.
import {
  ApiError,
  missingKeyInit,
  OutreachClient,
  type OutreachClientOptions,
  PhoneClient,
  type PhoneClientOptions,
} from '../api';
import { attributionHeaders, readSettings, type Settings } from '../platform';
import { hideKeysInErrors } from './errors';

/** What a caller may still choose: the deadline, the rate budget, retry and batch sizes. */
type ClientOptions<O> = Partial<Omit<O, 'apiKey' | 'baseUrl' | 'secrets' | 'extraHeaders'>>;

/** The outreach client of these settings; throws ApiError 'missing-key' when no Outreach key is set. */
export function outreachClient(
  options: ClientOptions<OutreachClientOptions> = {},
  settings: Settings = readSettings(),
): OutreachClient {
  if (!settings.outreachApiKey) throw new ApiError(missingKeyInit('outreach'));
  const keys = [settings.outreachApiKey, settings.phoneApiKey].filter((key) => key !== '');
  hideKeysInErrors(keys);
  return new OutreachClient({
    ...options,
    apiKey: settings.outreachApiKey,
    baseUrl: settings.outreachBaseUrl,
    secrets: keys,
    // Asked for at the first request only: building a client that sends nothing reads no property.
    extraHeaders: () => headersOfExecution(keys),
  });
}

/** The phone-check client of these settings; throws ApiError 'missing-key' when no phone-check key is set. */
export function phoneClient(
  options: ClientOptions<PhoneClientOptions> = {},
  settings: Settings = readSettings(),
): PhoneClient {
  if (!settings.phoneApiKey) throw new ApiError(missingKeyInit('phone'));
  hideKeysInErrors([settings.phoneApiKey, settings.outreachApiKey]);
  return new PhoneClient({
    ...options,
    apiKey: settings.phoneApiKey,
    baseUrl: settings.phoneBaseUrl,
    secrets: [settings.outreachApiKey].filter((key) => key !== ''),
  });
}

let attribution: { keys: string; headers: Record<string, string> } | undefined;

/** The attribution headers, read once an execution (two property reads) for the same keys. */
function headersOfExecution(keys: readonly string[]): Record<string, string> {
  const id = keys.join('\n');
  if (!attribution || attribution.keys !== id) attribution = { keys: id, headers: attributionHeaders(keys) };
  return attribution.headers;
}
