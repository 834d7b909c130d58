// src/api/outreach/email-schemas.ts: the send schemas apply cleanLine / cleanNickname (cleaned, never refused).
import { checkRequest } from '../../src/api/transport/requests';
import { SendPersonalizedRequestSchema } from '../../src/api/outreach/email-schemas';

describe('send schemas clean instead of refusing', () => {
  test('personalized: subject, nickname and task_subject cleaned; content keeps its line breaks', () => {
    const body = checkRequest('outreach', 'POST /x', SendPersonalizedRequestSchema(), {
      task_subject: 'Spring\r\noffer\u200B · T1',
      emails: [
        {
          email: 'ann@example.com',
          subject: 'Hi\nthere\u0000',
          nickname: `Ann\r\nBcc: evil@x.com${'z'.repeat(500)}`,
          content: 'Line 1\nLine 2',
          body_format: 'text',
        },
        {
          email: 'bob@example.com',
          subject: 'Hi',
          nickname: '\u200B\r\n',
          content: 'x',
          body_format: 'text',
        },
      ],
    });
    expect(body.task_subject).toBe('Spring offer · T1');
    expect(body.emails[0].subject).toBe('Hi there');
    expect(body.emails[0].nickname).toHaveLength(200);
    expect(body.emails[0].nickname?.startsWith('Ann Bcc: evil@x.com')).toBe(true);
    expect(body.emails[0].content).toBe('Line 1\nLine 2');
    expect(body.emails[1].nickname).toBeUndefined(); // nothing left: not sent
    expect(JSON.stringify(body.emails[1])).not.toContain('nickname');
  });
});
