// One small JSON record per sheet in document properties (`<prefix><sheet id>`): a scheduled send, a running
// follow-up sequence. A record that cannot be read (or fails `valid`) counts as none.
interface SheetRecords<T> {
  get(sheetId: number): T | null;
  save(sheetId: number, record: T): void;
  remove(sheetId: number): void;
  /** Every record of the document (from properties already read, or read now). */
  all(properties?: Record<string, string>): T[];
}

export function sheetRecords<T>(prefix: string, valid: (value: T) => boolean): SheetRecords<T> {
  const store = () => PropertiesService.getDocumentProperties();
  const parse = (text: string | null | undefined): T | null => {
    try {
      const value = text ? (JSON.parse(text) as T) : null;
      return value && valid(value) ? value : null;
    } catch {
      return null;
    }
  };
  return {
    get: (sheetId) => parse(store().getProperty(prefix + sheetId)),
    save: (sheetId, record) => store().setProperty(prefix + sheetId, JSON.stringify(record)),
    remove: (sheetId) => store().deleteProperty(prefix + sheetId),
    all: (properties = store().getProperties()) =>
      Object.keys(properties)
        .filter((key) => key.startsWith(prefix))
        .map((key) => parse(properties[key]))
        .filter((record): record is NonNullable<T> => record !== null),
  };
}
