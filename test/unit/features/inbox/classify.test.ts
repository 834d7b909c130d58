// The classifier: delivery reports of a mail system, messages failing authentication, automatic answers
// (headers and subjects in the ten languages), mailings, requests to be removed (the reply's own first lines
// only), and replies, each only for its sender.
import {
  addressOf,
  classify,
  DEFAULT_PAUSE_DAYS,
  failedRecipients,
  type InboxMessage,
  isSystemReport,
  ownWords,
  recipientsOf,
  statusOf,
} from '../../../../src/features/inbox/classify';

const AT = Date.UTC(2026, 11, 3, 10);
const DAY = 86_400_000;
const message = (headers: Record<string, string>, snippet = ''): InboxMessage => ({
  id: 'm1',
  at: AT,
  headers: { from: 'Ann Lee <Ann@Acme.com>', subject: 'Re: Hello Ann', ...headers },
  snippet,
});

describe('classify', () => {
  test('a plain answer is a reply from its sender', () => {
    expect(classify(message({}, 'Thanks, let us talk on Monday.'))).toEqual({
      code: 'reply',
      address: 'ann@acme.com',
    });
  });

  test.each([
    [{ 'auto-submitted': 'auto-replied' }],
    [{ 'auto-submitted': 'auto-generated' }],
    [{ 'x-autoreply': 'yes' }],
    [{ precedence: 'auto_reply' }],
  ])('an automatic answer by its headers pauses for 7 days without a date: %j', (headers) => {
    expect(classify(message(headers, 'Thank you for your message.'))).toEqual({
      code: 'outOfOffice',
      address: 'ann@acme.com',
      until: AT + DEFAULT_PAUSE_DAYS * DAY,
      dated: false,
    });
  });

  test('Auto-Submitted: no is a person', () => {
    expect(classify(message({ 'auto-submitted': 'no' })).code).toBe('reply');
  });

  test.each([
    'Out of Office: Hello Ann',
    'Automatic reply: Hello Ann',
    'Abwesenheitsnotiz: Hello Ann',
    'Réponse automatique : Hello Ann',
    'Fuera de la oficina',
    'Resposta automática: Hello',
    'Fuori ufficio',
    'Afwezig: Hello',
    'Otomatik yanıt: Hello',
    'Trả lời tự động: Hello',
    '自动回复: Hello',
  ])('an out-of-office subject pauses, to the date it gives: %s', (subject) => {
    const verdict = classify(message({ subject }, 'I am back on 10 December 2026.'));
    expect(verdict).toEqual({
      code: 'outOfOffice',
      address: 'ann@acme.com',
      until: Date.UTC(2026, 11, 10, 12),
      dated: true,
    });
  });

  test.each([
    ['Please remove me from your list.'],
    ['Unsubscribe'],
    ['Bitte abmelden.'],
    ['Merci de me désinscrire.'],
    ['Quiero darme de baja.'],
    ['Por favor, descadastre meu e-mail.'],
    ['Per favore cancellami.'],
    ['Graag afmelden.'],
    ['Lütfen beni listeden çıkarın.'],
    ['Vui lòng hủy đăng ký.'],
    ['请退订'],
  ])('a request to be removed in its first lines: %s', (snippet) => {
    expect(classify(message({}, snippet))).toEqual({ code: 'unsubscribe', address: 'ann@acme.com' });
  });

  test('the quoted mail below the reply does not count (our own unsubscribe line)', () => {
    const snippet =
      'Sounds good, call me. On Mon, Dec 1, 2026 at 9:00 Bob <bob@us.com> wrote: Hello Ann … to unsubscribe write to';
    expect(classify(message({}, snippet)).code).toBe('reply');
    expect(ownWords(snippet)).toBe('sounds good, call me. ');
  });

  test('an unsubscribe subject counts', () => {
    expect(classify(message({ subject: 'Unsubscribe' })).code).toBe('unsubscribe');
  });

  test('a mailing (Precedence bulk or list) is nothing', () => {
    expect(classify(message({ precedence: 'bulk' }, 'Our newsletter'))).toEqual({ code: 'ignore' });
  });

  const notice = {
    from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
    subject: 'Delivery Status Notification (Failure)',
    'return-path': '<>',
    'content-type': 'multipart/report; report-type=delivery-status; boundary="b"',
    'delivered-to': 'owner@example.com',
    'x-failed-recipients': 'other@example.org',
  };
  const report = {
    failed: [{ address: 'tom@example.org', status: '550 5.1.1' }],
    originalTo: ['tom@example.org'],
  };

  test("a mail system's delivery report fails the recipient of its delivery-status part, never one its text names", () => {
    expect(classify({ ...message(notice, 'other@example.org'), report })).toEqual({
      code: 'bounce',
      address: 'tom@example.org',
      status: '550 5.1.1',
    });
    // Its original headers went to someone else, or it has none, or no part was read: nobody.
    expect(classify({ ...message(notice), report: { ...report, originalTo: ['x@y.org'] } }).code).toBe(
      'ignore',
    );
    expect(classify({ ...message(notice), report: { ...report, originalTo: null } }).code).toBe('ignore');
    expect(classify(message(notice)).code).toBe('ignore');
  });

  test.each([
    ['the null sender', { 'return-path': '<>', 'content-type': 'text/plain' }, true],
    ['a delivery-status report', { 'return-path': '<x@y>' }, true],
    ['neither', { 'return-path': '<bounces@googlemail.com>', 'content-type': 'text/plain' }, false],
    ['a look-alike domain', { from: 'mailer-daemon@random.example' }, false],
    ['a look-alike of Google', { from: 'mailer-daemon@googlemail.com.evil.example' }, false],
    ["the mailbox's own domain", { from: 'postmaster@mx.acme.com', 'delivered-to': 'ann@acme.com' }, true],
    ['an ordinary sender', { from: 'notices@googlemail.com' }, false],
  ])('a report of a mail system: %s', (_, headers, expected) => {
    expect(isSystemReport({ ...notice, ...headers })).toBe(expected);
  });

  test('a bounce-like message that is no report counts only for its sender', () => {
    const subject = 'Undeliverable: Hello';
    expect(
      classify(message({ subject, 'x-failed-recipients': 'tom@example.org' }, '550 tom@example.org')),
    ).toEqual({
      code: 'reply',
      address: 'ann@acme.com',
    });
  });

  test('a message Gmail found failing authentication is nothing', () => {
    const results = (r: string) => ({ 'authentication-results': `mx.google.com; dkim=none; ${r}` });
    expect(classify(message(results('spf=fail smtp.mailfrom=acme.com; dmarc=pass'), 'remove me')).code).toBe(
      'ignore',
    );
    expect(classify(message(results('spf=pass; dmarc=fail (p=NONE) header.from=acme.com'))).code).toBe(
      'ignore',
    );
    expect(classify(message(results('spf=softfail; dmarc=pass'), 'remove me')).code).toBe('unsubscribe');
  });

  test('the parts of a report: each failed recipient and its status; the original recipients', () => {
    const status =
      'Reporting-MTA: dns; googlemail.com\r\n\r\nFinal-Recipient: rfc822; Tom@Example.org\r\nAction: failed\r\n' +
      'Status: 5.1.1\r\nDiagnostic-Code: smtp; 550-5.1.1 The email account\r\n does not exist\r\n\r\n' +
      'Final-Recipient: rfc822; later@example.org\r\nAction: delayed\r\nStatus: 4.4.1\r\n\r\n' +
      'Original-Recipient: rfc822; bare@example.org\r\nAction: failed\r\nStatus: 5.2.2';
    expect(failedRecipients(status)).toEqual([
      { address: 'tom@example.org', status: '550 5.1.1' },
      { address: 'bare@example.org', status: '5.2.2' },
    ]);
    expect(
      recipientsOf('From: a@b.c\r\nTo: "Tom" <tom@example.org>,\r\n ann@acme.com\r\nCc: c@d.org\r\n'),
    ).toEqual(['tom@example.org', 'ann@acme.com', 'c@d.org']);
  });

  test('addresses and statuses', () => {
    expect(addressOf('"Lee, Ann" <ann@acme.com>')).toBe('ann@acme.com');
    expect(addressOf('ann@acme.com')).toBe('ann@acme.com');
    expect(addressOf('')).toBe('');
    expect(statusOf('remote server said: 550-5.1.1 user unknown')).toBe('550 5.1.1');
    expect(statusOf('nothing')).toBe('');
  });
});
