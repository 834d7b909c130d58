// Opening sidebars and dialogs. The HTML files are built from src/ui (shared parts inlined at build time).
export function showSidebarFile(file: string, title: string, data: Record<string, unknown> = {}): void {
  const template = HtmlService.createTemplateFromFile(file);
  Object.assign(template, data);
  SpreadsheetApp.getUi().showSidebar(template.evaluate().setTitle(title));
}

export function showDialogFile(
  file: string,
  title: string,
  data: Record<string, unknown> = {},
  size = { width: 420, height: 360 },
): void {
  const template = HtmlService.createTemplateFromFile(file);
  Object.assign(template, data);
  const output = template.evaluate().setWidth(size.width).setHeight(size.height);
  SpreadsheetApp.getUi().showModalDialog(output, title);
}

/**
 * A value for a template's `<?!= ?>` inside a <script>: JSON with `<` escaped, so no text can close the
 * script element, and the two line separators JSON allows but older JavaScript parsers do not.
 */
export function scriptJson(value: unknown): string {
  return JSON.stringify(value === undefined ? null : value)
    .replace(/</g, '\\u003c')
    .replace(/\u2028/g, '\\u2028')
    .replace(/\u2029/g, '\\u2029');
}

/** The dialog that drives a long job to its end (see features/jobs), with Stop and Close; `progress` its first view. */
export function showProgressDialog(
  job: { title: string; action: string },
  progress: { kind: string; message: string },
): void {
  showDialogFile(
    'progress',
    job.title,
    {
      kind: scriptJson(progress.kind),
      progress: scriptJson(progress),
      summary: progress.message,
      action: job.action,
    },
    { width: 400, height: 270 },
  );
}

/** A message with an OK button. */
export function inform(title: string, message: string): void {
  const ui = SpreadsheetApp.getUi();
  ui.alert(title, message, ui.ButtonSet.OK);
}

/** A YES/NO confirmation; true when the user chose YES. */
export function confirm(title: string, message: string): boolean {
  const ui = SpreadsheetApp.getUi();
  return ui.alert(title, message, ui.ButtonSet.YES_NO) === ui.Button.YES;
}

/** A YES / NO / CANCEL question; closing the dialog counts as cancel. */
export function choose(title: string, message: string): 'yes' | 'no' | 'cancel' {
  const ui = SpreadsheetApp.getUi();
  const button = ui.alert(title, message, ui.ButtonSet.YES_NO_CANCEL);
  return button === ui.Button.YES ? 'yes' : button === ui.Button.NO ? 'no' : 'cancel';
}

/** A text prompt with OK / Cancel; the trimmed text, or null when cancelled. */
export function ask(title: string, message: string): string | null {
  const ui = SpreadsheetApp.getUi();
  const answer = ui.prompt(title, message, ui.ButtonSet.OK_CANCEL);
  return answer.getSelectedButton() === ui.Button.OK ? answer.getResponseText().trim() : null;
}

export function toast(message: string, title = 'Outreach', seconds = 5): void {
  SpreadsheetApp.getActiveSpreadsheet().toast(message, title, seconds);
}
