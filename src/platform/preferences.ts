// Small per-user choices the add-on remembers: JSON, one short value each. The unlock's roles choice is the
// user's (user properties); the last search of the sidebar is the user's in one document (document
// properties under the user's token, so Load more goes on in the right document). Nothing kept here grows
// with the rows or mails of a document.
import { userToken } from './owner';

const PREFIX = 'pref.';

/** The remembered value, or undefined (never set, or unreadable). */
export function readPreference<T>(name: string): T | undefined {
  return parsed<T>(PropertiesService.getUserProperties().getProperty(PREFIX + name));
}

function parsed<T>(text: string | null): T | undefined {
  if (!text) return undefined;
  try {
    return JSON.parse(text) as T;
  } catch {
    return undefined;
  }
}

export function savePreference(name: string, value: unknown): void {
  PropertiesService.getUserProperties().setProperty(PREFIX + name, JSON.stringify(value));
}

/** This user's remembered value in this document (document properties, under the user's own token). */
export function readDocumentPreference<T>(name: string): T | undefined {
  return parsed<T>(PropertiesService.getDocumentProperties().getProperty(`${PREFIX}${name}.${userToken()}`));
}

export function saveDocumentPreference(name: string, value: unknown): void {
  PropertiesService.getDocumentProperties().setProperty(
    `${PREFIX}${name}.${userToken()}`,
    JSON.stringify(value),
  );
}
