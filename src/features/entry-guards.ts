// How the entry points a user starts report what went wrong, in the words every surface uses (describe()):
// a menu action in a dialog (a missing key opens Settings), a google.script.run endpoint to its page
// (sidebar or dialog), never as the transport's developer text ("POST /api/v1/... answered 401 (...)").
// Anything else stays a script error: a bug. Each guard is one function around the feature, so a stack
// trace reads forwarder → guard → feature.
import { ApiError } from '../api';
import { ensureInstallId, missingScopes, promptForScopes, type ScopeName } from '../platform';
import { showSettingsDialog } from './settings';
import { isStoreFull } from './storage';
import { inform } from '../ui';
import { sayPausesOnce } from './mail';
import { consentText, describe, UserError } from './errors';

/**
 * A menu action: checks the permissions it needs (the document and dialogs, plus `scopes`), makes the
 * install id, runs the action, shows what the user can act on in a dialog. A refused permission is said in a
 * dialog; without the dialogs' own permission nothing can be shown, so Google's consent prompt asks for it.
 */
export function menuAction<R>(
  title: string,
  scopes: readonly ScopeName[],
  action: () => R,
): () => R | undefined {
  return guardMenu(title, scopes, true, action);
}

/** Resume a paused list: a menu action whose own question names the pause (not said before it as well). */
export function resumeMenuAction<R>(
  title: string,
  scopes: readonly ScopeName[],
  action: () => R,
): () => R | undefined {
  return guardMenu(title, scopes, false, action);
}

function guardMenu<R>(
  title: string,
  scopes: readonly ScopeName[],
  sayPauses: boolean,
  action: () => R,
): () => R | undefined {
  return function fromMenu(): R | undefined {
    const missing = missingScopes(['sheet', 'ui', ...scopes]);
    if (missing.includes('ui')) promptForScopes(missing);
    if (missing.length > 0) {
      inform(title, consentText(title, missing));
      return undefined;
    }
    ensureInstallId(); // a menu execution may write user properties; custom functions may not
    try {
      if (sayPauses) sayPausesOnce();
      return action();
    } catch (error) {
      if (error instanceof ApiError && error.kind === 'missing-key') {
        showSettingsDialog(`${error.userMessage} ${error.action}`);
      } else if (error instanceof ApiError || error instanceof UserError || isStoreFull(error)) {
        inform(title, describe(error));
      } else throw error;
    }
    return undefined;
  };
}

/**
 * A google.script.run endpoint: checks the permissions `label` needs (the document, plus `scopes`); the
 * page's failure handler gets the sentence a dialog would show. The feature is the last argument (the build
 * reads its parameters there: dev/build/entry-points.js).
 */
export function pageEndpoint<A extends unknown[], R>(
  label: string,
  scopes: readonly ScopeName[],
  endpoint: (...args: A) => R,
): (...args: A) => R {
  return function forPage(...args: A): R {
    const missing = missingScopes(['sheet', ...scopes]);
    if (missing.length > 0) throw new Error(consentText(label, missing));
    try {
      return endpoint(...args);
    } catch (error) {
      if (error instanceof ApiError || isStoreFull(error)) throw new Error(describe(error), { cause: error });
      throw error;
    }
  };
}

/**
 * A custom function: a refused permission is the cell's error, in words (where ScriptApp cannot be asked,
 * describe() translates the service's own refusal instead).
 */
export function customFunction<A extends unknown[], R>(
  label: string,
  scopes: readonly ScopeName[],
  fn: (...args: A) => R,
): (...args: A) => R {
  return function inCell(...args: A): R {
    const missing = missingScopes(scopes);
    if (missing.length > 0) throw new Error(consentText(label, missing));
    return fn(...args);
  };
}
