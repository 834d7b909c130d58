// Menu actions report what went wrong in a dialog the user reads, not as a raw script error.
import { ApiError } from '../api/errors';
import { ensureInstallId } from '../platform/attribution';
import { UserError } from './inputs';
import { describe, showSettingsDialog } from './settings';
import { inform } from '../ui/dialogs';

export function runMenuAction(title: string, action: () => void): void {
  ensureInstallId(); // a menu execution may write user properties; custom functions may not
  try {
    action();
  } catch (error) {
    if (error instanceof ApiError && error.kind === 'missing-key') {
      showSettingsDialog(`${error.userMessage} ${error.action}`);
    } else if (error instanceof ApiError || error instanceof UserError) {
      inform(title, describe(error));
    } else throw error;
  }
}
