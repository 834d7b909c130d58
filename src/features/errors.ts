// The words of an error as every surface shows them (alerts, status cells, the Tracking summary, a page's
// message), and UserError, the error whose message is already the user's words. It owns no decision: code
// that acts on an error reads its kind (ApiError), never the words made here. No text it returns may hold a
// fragment of an API key.
import { ApiError } from '../api/errors';
import { redact } from '../api/transport/redact';
import { readSettings } from '../platform/settings';
import { refusalText } from './permissions';
import { isStoreFull, STORE_FULL_TEXT } from './storage';

/** A mistake the user can fix, said in their words; `field` names the input it concerns (sidebar forms). */
export class UserError extends Error {
  constructor(
    message: string,
    readonly field?: string,
  ) {
    super(message);
    this.name = 'UserError';
  }
}

/**
 * The words of an error for the user. An ApiError was redacted when it was made (the transport knows both
 * keys); any other error's text is redacted here.
 */
export function describe(error: unknown): string {
  if (isStoreFull(error)) return STORE_FULL_TEXT;
  if (error instanceof ApiError)
    return error.action ? `${error.userMessage} ${error.action}` : error.userMessage;
  const text = error instanceof Error ? error.message : String(error);
  return refusalText(text) || hideKeys(text);
}

/** The text with any fragment of the user's two API keys hidden (redact(), keys read from settings). */
export function hideKeys(text: string): string {
  let keys: string[];
  try {
    const settings = readSettings();
    keys = [settings.outreachApiKey, settings.phoneApiKey];
  } catch {
    return text; // no access to the settings (AuthMode.NONE): no key can have been used either
  }
  return redact(text, keys);
}
