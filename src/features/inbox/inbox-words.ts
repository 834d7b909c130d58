// The phrases the classifier looks for, in the ten languages the roles read (prospecting/roles.ts: English,
// German, French, Spanish, Portuguese, Italian, Dutch, Turkish, Vietnamese, Chinese), written as `fold` leaves
// a text: lower case, without accents ("Réponse" → "reponse", "Dışında" → "disinda", "Vắng" → "vang").
// They are Gmail's words to read, not the add-on's to show: no *_TEXTS table holds them.

/** Lower case, accents and marks removed; ß → ss, ı → i, đ → d; runs of spaces made one. */
export function fold(text: string): string {
  return text
    .toLowerCase()
    .replace(/ß/g, 'ss')
    .replace(/ı/g, 'i')
    .replace(/đ/g, 'd')
    .normalize('NFD')
    .replace(/[\u0300-\u036f]/g, '')
    .replace(/\s+/g, ' ');
}

// Latin phrases start a word (folded text: only a-z letters before them matter); Chinese ones match anywhere.
const anyOf = (phrases: string[]) => new RegExp(`(?<![a-z0-9])(?:${phrases.join('|')})`, 'u');

/** Subjects of automatic out-of-office answers. */
export const OUT_OF_OFFICE_SUBJECT = anyOf([
  'out of (?:the )?office',
  'automatic reply',
  'auto(?:matic)?[- ]?reply',
  'autoreply',
  'away from (?:the )?office',
  'on (?:vacation|holiday|leave|annual leave)',
  'abwesenheit',
  'abwesend',
  'nicht im buro',
  'automatische antwort',
  'ausser haus',
  'im urlaub',
  'absent(?:e)? du bureau',
  'absence',
  'reponse automatique',
  'en conge',
  'hors du bureau',
  'fuera de (?:la )?oficina',
  'respuesta automatica',
  'ausente',
  'ausencia',
  'de vacaciones',
  'fora do escritorio',
  'resposta automatica',
  'de ferias',
  'fuori ufficio',
  'fuori sede',
  'risposta automatica',
  'assente',
  'in ferie',
  'afwezig',
  'automatisch antwoord',
  'niet op kantoor',
  'buiten kantoor',
  'met vakantie',
  'ofis disinda',
  'otomatik (?:yanit|cevap)',
  'izindeyim',
  'vang mat',
  'tra loi tu dong',
  'ngoai van phong',
  'nghi phep',
  '自动回复',
  '自動回覆',
  '不在办公室',
  '外出',
  '休假',
]);

/** Asking to be removed, in a reply's first lines. */
export const UNSUBSCRIBE_PHRASE = anyOf([
  'unsubscribe',
  'remove me',
  'take me off',
  'stop (?:e-?mailing|sending|contacting)',
  'opt(?:ed)?[- ]?out',
  'no (?:more|further) (?:e-?mails|messages)',
  'do not (?:contact|e-?mail) me',
  "don't (?:contact|e-?mail) me",
  'abmelden',
  'austragen',
  'entfernen sie mich',
  'keine (?:weiteren )?(?:e-?mails|nachrichten) mehr',
  'desinscri',
  'desabonn',
  'retirez[- ]moi',
  'supprimez[- ]moi',
  'ne plus recevoir',
  'dar(?:se|me) de baja',
  'dame de baja',
  'eliminarme',
  'no quiero recibir',
  'no me (?:envie|escriba)',
  'descadastr',
  'cancelar (?:a )?inscricao',
  'remova[- ]me',
  'nao quero receber',
  'disiscriv',
  'cancellami',
  'rimuovetemi',
  'rimuovimi',
  'non voglio ricevere',
  'afmelden',
  'uitschrijven',
  'verwijder (?:mij|me)',
  'geen e-?mails meer',
  'abonelikten cik',
  'listeden cikar',
  'beni cikar',
  'huy dang ky',
  'ngung nhan',
  'dung gui',
  '退订',
  '退訂',
  '取消订阅',
  '不要再发',
]);

/**
 * Where a reply's own words end and the quoted mail begins ("On … wrote:", "Am … schrieb", "-----Original
 * Message-----"…): our own mail's unsubscribe line below it must not count as the recipient's words.
 */
export const QUOTE_START = new RegExp(
  [
    '(?<![\\p{L}])on [^\\n]{0,120}? wrote:?',
    '(?<![\\p{L}])am [^\\n]{0,120}? schrieb',
    '(?<![\\p{L}])le [^\\n]{0,120}? a ecrit',
    '(?<![\\p{L}])el [^\\n]{0,120}? escribio',
    '(?<![\\p{L}])em [^\\n]{0,120}? escreveu',
    '(?<![\\p{L}])il [^\\n]{0,120}? ha scritto',
    '(?<![\\p{L}])op [^\\n]{0,120}? schreef',
    '(?<![\\p{L}])[^\\n]{0,120}? yazdi:',
    '(?<![\\p{L}])vao [^\\n]{0,120}? da viet',
    '写道',
    '-{3,} ?(?:original|urspr|message d|mensaje original|mensagem original|messaggio originale|oorspronkelijk)',
    '\\n>',
    '(?:^|\\s)(?:from|von|de|da|van|kimden|tu):\\s',
  ].join('|'),
  'u',
);

/** Senders of delivery-failure notices (their address's local part). */
export const FAILURE_SENDER = /^(?:mailer-daemon|postmaster|mail-daemon|maildaemon)$/;

/**
 * Google's mail system, which writes the delivery reports of a Gmail or Workspace mailbox
 * (mailer-daemon@googlemail.com); the mailbox's own domain counts too (classify.ts).
 */
export const MAIL_SYSTEMS = ['googlemail.com', 'google.com'];
