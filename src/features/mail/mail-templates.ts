// One mail template per sheet, in document properties (every editor of the document sends with it). A
// 50,000-character body is larger than one property value (9 KB): large-property splits it.
import { readLarge, writeLarge } from '../../platform/large-property';

export interface StoredTemplate {
  campaign: string;
  subject: string;
  body: string;
  bodyFormat: 'text' | 'html';
  savedAt: number;
}

const key = (sheetId: number) => `template.${sheetId}`;

export function loadTemplate(sheetId: number): StoredTemplate | null {
  return readLarge<StoredTemplate>(PropertiesService.getDocumentProperties().getProperties(), key(sheetId));
}

export function storeTemplate(sheetId: number, template: Omit<StoredTemplate, 'savedAt'>): StoredTemplate {
  const stored: StoredTemplate = { ...template, savedAt: Date.now() };
  writeLarge(PropertiesService.getDocumentProperties(), key(sheetId), stored);
  return stored;
}
