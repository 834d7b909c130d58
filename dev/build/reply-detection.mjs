// Reply detection is a build option, so that the default add-on asks for no mail access:
//
//   REPLY_DETECTION=gmail npm run build      (and npm run deploy)
//
// adds the read-only Gmail scope and the Gmail advanced service to the manifest, and writes 'gmail' for the
// constant REPLY_DETECTION that src/ declares ('' without the option) before rollup tree-shakes: a build
// without the option has none of the Gmail reading code (replyDetectionConstant). gmail.readonly is a restricted scope:
// docs/publishing.md says what that costs a public listing. Anything else in the variable stops the build with
// what to write instead.

export const GMAIL_READONLY_SCOPE = 'https://www.googleapis.com/auth/gmail.readonly';
export const GMAIL_ADVANCED_SERVICE = Object.freeze({
  userSymbol: 'Gmail',
  serviceId: 'gmail',
  version: 'v1',
});
export const REPLY_DETECTION_VARIABLE = 'REPLY_DETECTION';

export class ReplyDetectionError extends Error {
  constructor(message) {
    super(message);
    this.name = 'ReplyDetectionError';
  }
}

/** The build's reply detection: 'gmail', or '' when the variable is unset or empty. */
export function replyDetectionOf(env) {
  const value = String(env[REPLY_DETECTION_VARIABLE] ?? '').trim();
  if (value === '') return '';
  if (value.toLowerCase() === 'gmail') return 'gmail';
  throw new ReplyDetectionError(
    `${REPLY_DETECTION_VARIABLE}=${value} is not a reply detection this build knows. Write ` +
      `${REPLY_DETECTION_VARIABLE}=gmail to read replies from the user's Gmail, or leave it out for a build ` +
      'that asks for no mail access.',
  );
}

/** The manifest with what `replyDetection` needs: for 'gmail', the scope and the advanced service (once each). */
export function manifestFor(manifest, replyDetection) {
  if (replyDetection !== 'gmail') return manifest;
  const scopes = manifest.oauthScopes || [];
  const dependencies = manifest.dependencies || {};
  const services = (dependencies.enabledAdvancedServices || []).filter((s) => s.serviceId !== 'gmail');
  return {
    ...manifest,
    oauthScopes: scopes.includes(GMAIL_READONLY_SCOPE) ? scopes : [...scopes, GMAIL_READONLY_SCOPE],
    dependencies: { ...dependencies, enabledAdvancedServices: [...services, { ...GMAIL_ADVANCED_SERVICE }] },
  };
}

/**
 * Rollup plugin: writes `value` for each use of the identifier REPLY_DETECTION in the compiled modules, so that
 * rollup leaves out what only the other value runs (the mailbox reads, the classification of answers).
 */
export function replyDetectionConstant(value) {
  return {
    name: 'reply-detection-constant',
    transform(code, id) {
      if (id.includes('node_modules') || !code.includes(REPLY_DETECTION_VARIABLE)) return null;
      const uses = [];
      const visit = (node) => {
        if (!node || typeof node.type !== 'string') return;
        if (node.type === 'Identifier' && node.name === REPLY_DETECTION_VARIABLE) uses.push(node);
        for (const key of Object.keys(node)) {
          const child = node[key];
          if (Array.isArray(child)) child.forEach(visit);
          else if (child && typeof child.type === 'string') visit(child);
        }
      };
      visit(this.parse(code));
      let out = code;
      for (const { start, end } of uses.sort((a, b) => b.start - a.start)) {
        out = out.slice(0, start) + JSON.stringify(value) + out.slice(end);
      }
      return { code: out, map: null };
    },
  };
}
