// Whether formulas in this document may spend phone-check credits. Custom functions run with the
// spreadsheet OWNER's user properties, so any editor's =PHONE_CHECK spends the owner's credits: it may do
// so only where the owner said yes, in this document.
//
// Each user who turns the switch on in Settings adds a token to the document property
// CONSENT_PROPERTY (a JSON list): the SHA-256 of that user's own random secret (user property
// SECRET_PROPERTY, made in Settings, which may write user properties) and the spreadsheet id. A custom
// function computes the token of the owner (whose user properties it reads) and looks for it.
//   - An editor's switch adds or removes only the editor's own token: it can neither give nor withdraw the
//     owner's consent, and the owner's token cannot be made without the owner's secret.
//   - The id in the token ties it to this document: a copy (new id, and its own owner) starts without it.
//   - Tokens say nothing about who gave them (no e-mail address is stored).

const SECRET_PROPERTY = 'consent.secret';
const CONSENT_PROPERTY = 'phoneFormulas.allowedBy';
/** Most tokens kept (editors who turned the switch on); the oldest go first. */
const MAX_TOKENS = 100;

/**
 * The user whose user properties this execution reads allowed formulas in this document to spend
 * phone-check credits: in a custom function that is the owner, in Settings the user at the keyboard.
 */
export function formulasMaySpend(): boolean {
  try {
    const secret = PropertiesService.getUserProperties().getProperty(SECRET_PROPERTY);
    return !!secret && readTokens().includes(tokenOf(secret));
  } catch {
    return false;
  }
}

/** In Settings: the user at the keyboard allows (or no longer allows) formulas here to spend credits. */
export function setFormulasMaySpend(allow: boolean): void {
  const user = PropertiesService.getUserProperties();
  let secret = user.getProperty(SECRET_PROPERTY);
  if (!secret) {
    if (!allow) return;
    secret = Utilities.getUuid();
    user.setProperty(SECRET_PROPERTY, secret);
  }
  const token = tokenOf(secret);
  const tokens = readTokens().filter((t) => t !== token);
  if (allow) tokens.push(token);
  PropertiesService.getDocumentProperties().setProperty(
    CONSENT_PROPERTY,
    JSON.stringify(tokens.slice(-MAX_TOKENS)),
  );
}

function readTokens(): string[] {
  try {
    const list: unknown = JSON.parse(
      PropertiesService.getDocumentProperties().getProperty(CONSENT_PROPERTY) || '[]',
    );
    return Array.isArray(list) ? list.filter((t): t is string => typeof t === 'string') : [];
  } catch {
    return [];
  }
}

function tokenOf(secret: string): string {
  const id = SpreadsheetApp.getActiveSpreadsheet().getId();
  const digest = Utilities.computeDigest(Utilities.DigestAlgorithm.SHA_256, `${secret}|${id}|phone-formulas`);
  return Utilities.base64EncodeWebSafe(digest).slice(0, 22);
}
