// Small per-user choices the add-on remembers (the unlock's roles choice): JSON in the user's own
// properties, one short value each. Nothing kept here grows with the rows or mails of a document.
const PREFIX = 'pref.';

/** The remembered value, or undefined (never set, or unreadable). */
export function readPreference<T>(name: string): T | undefined {
  const text = PropertiesService.getUserProperties().getProperty(PREFIX + name);
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
