// The classifier: failure notices, automatic answers (headers and subjects in the ten languages), mailings,
// requests to be removed (the reply's own first lines only), and replies.
import {
  addressOf,
  classify,
  DEFAULT_PAUSE_DAYS,
  type InboxMessage,
  ownWords,
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

  test('a failure notice names the failed address and the server status, from the header or the text', () => {
    const notice = {
      from: 'Mail Delivery Subsystem <mailer-daemon@googlemail.com>',
      subject: 'Delivery Status Notification (Failure)',
      'auto-submitted': 'auto-replied',
    };
    expect(
      classify(
        message(
          { ...notice, 'x-failed-recipients': 'Tom@Example.org' },
          'Address not found … 550 5.1.1 The email account does not exist',
        ),
      ),
    ).toEqual({ code: 'bounce', address: 'tom@example.org', status: '550 5.1.1' });
    expect(
      classify(
        message(
          { ...notice, from: 'postmaster@example.org', subject: 'Undeliverable: Hello' },
          "Your message to tom@example.org couldn't be delivered. 554",
        ),
      ),
    ).toEqual({ code: 'bounce', address: 'tom@example.org', status: '554' });
    expect(classify(message(notice, 'no address here')).code).toBe('ignore');
  });

  test('addresses and statuses', () => {
    expect(addressOf('"Lee, Ann" <ann@acme.com>')).toBe('ann@acme.com');
    expect(addressOf('ann@acme.com')).toBe('ann@acme.com');
    expect(addressOf('')).toBe('');
    expect(statusOf('remote server said: 550-5.1.1 user unknown')).toBe('550 5.1.1');
    expect(statusOf('nothing')).toBe('');
  });
});
