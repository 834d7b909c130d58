'use strict';
const { useSandbox, recipients, DEMO_KEYS } = require('./helpers');

const t = useSandbox();
const BATCH = '/api/v1/emails/send/batch';
const PERSONAL = '/api/v1/emails/send/personalized';
const batch = (body, key) => t.api('POST', BATCH, { body, key });
const personalized = (body, key) => t.api('POST', PERSONAL, { body, key });
const base = (n = 1) => ({ content: 'Hi there', body_format: 'text', recipients: recipients(n) });
const email = (i, extra = {}) => ({
  email: `p${i}@example.com`,
  subject: `S${i}`,
  content: `Body ${i}`,
  body_format: 'text',
  ...extra,
});
const balance = async (key = DEMO_KEYS.paid) => (await t.api('GET', '/api/v1/credit/balance', { key })).json;
const mails = async (key = DEMO_KEYS.paid) => (await t.control('GET', `/mails?key=${key}`)).json.mails;

describe('batch send', () => {
  test('201 with task_id, total, status pending; 1 EDM per recipient from the monthly bucket', async () => {
    const res = await batch({ ...base(3), task_subject: 'Launch' });
    expect(res.status).toBe(201);
    expect(res.json).toEqual({ task_id: expect.any(Number), total: 3, status: 'pending' });
    expect(await balance()).toMatchObject({ monthlyEdm: 997, addonEdm: 2000 });
    const task = await t.api('GET', `/api/v1/emails/tasks/${res.json.task_id}`);
    expect(task.json).toMatchObject({
      taskId: res.json.task_id,
      totalCount: 3,
      taskSubject: 'Launch',
      status: 'pending',
    });
    expect(await mails()).toHaveLength(3);
  });

  test('deduction order: monthly EDM first, then add-on; 402 refunds everything', async () => {
    const first = await batch(base(61), DEMO_KEYS.low);
    expect(first.status).toBe(201);
    expect(await balance(DEMO_KEYS.low)).toMatchObject({ monthlyEdm: 0, addonEdm: 39 });
    const tooMany = await batch(base(40), DEMO_KEYS.low);
    expect(tooMany.status).toBe(402);
    expect(tooMany.json.type).toBe(`${t.sb.outreachUrl}/errors/insufficient-credits`);
    expect(tooMany.json.detail).toMatch(/required 40, available 39/);
    expect(tooMany.json).toMatchObject({ required: 40, available: 39 });
    expect(await balance(DEMO_KEYS.low)).toMatchObject({ monthlyEdm: 0, addonEdm: 39 });
    expect(await mails(DEMO_KEYS.low)).toHaveLength(61);
    const stats = await t.control('GET', '/stats');
    expect(stats.json.charged.edm[DEMO_KEYS.low]).toBe(61);
  });

  test('free plan: 403 forbidden, nothing sent', async () => {
    const res = await batch(base(1), DEMO_KEYS.free);
    expect(res.status).toBe(403);
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/forbidden`);
    const res2 = await personalized({ emails: [email(1)] }, DEMO_KEYS.free);
    expect(res2.status).toBe(403);
    expect(await mails(DEMO_KEYS.free)).toHaveLength(0);
  });

  test('variables: whole words only, case-sensitive, in content and subject, per recipient', async () => {
    const res = await batch({
      content:
        'Dear name, your company (company_name) ordered product. Name stays; names stays; name_x stays.',
      body_format: 'text',
      recipients: [
        {
          email: 'a@example.com',
          subject: 'Offer for company_name',
          nickname: 'Ann',
          variables: { name: 'Ann', company_name: 'Acme $1 & Co', product: 'chairs' },
        },
        { email: 'b@example.com', subject: 'Offer for company_name', variables: { name: 'Bob' } },
      ],
    });
    expect(res.status).toBe(201);
    const task = await t.api('GET', `/api/v1/emails/tasks/${res.json.task_id}`);
    expect(task.json.content).toBe(
      'Dear name, your company (company_name) ordered product. Name stays; names stays; name_x stays.',
    );
    const [a, b] = task.json.mails;
    expect(a).toMatchObject({ subject: 'Offer for Acme $1 & Co', recipientNickname: 'Ann' });
    expect(b).toMatchObject({ subject: 'Offer for company_name', recipientNickname: '' });
    const mailA = await t.api('GET', `/api/v1/emails/mails/${a.mailId}`);
    expect(mailA.json.content).toBe(
      'Dear Ann, your company (Acme $1 & Co) ordered chairs. Name stays; names stays; name_x stays.',
    );
    expect(mailA.json.bodyFormat).toBe('text');
    const mailB = await t.api('GET', `/api/v1/emails/mails/${b.mailId}`);
    expect(mailB.json.content).toBe(
      'Dear Bob, your company (company_name) ordered product. Name stays; names stays; name_x stays.',
    );
  });

  test('substitution is one pass (a value naming another variable is not replaced again)', async () => {
    const res = await batch({
      content: 'a b',
      body_format: 'html',
      recipients: [{ email: 'x@example.com', subject: 's', variables: { a: 'b', b: 'c' } }],
    });
    const task = await t.api('GET', `/api/v1/emails/tasks/${res.json.task_id}`);
    const mail = await t.api('GET', `/api/v1/emails/mails/${task.json.mails[0].mailId}`);
    expect(mail.json).toMatchObject({ content: 'b c', bodyFormat: 'html' });
  });

  test('task_subject: whitespace and invisible characters stripped at both ends, 255 checked after', async () => {
    const messy = '\u200B\uFEFF \t Spring\u200Bcampaign \u2060\u200D\n\u0007';
    const res = await batch({ ...base(1), task_subject: messy });
    const task = await t.api('GET', `/api/v1/emails/tasks/${res.json.task_id}`);
    expect(task.json.taskSubject).toBe('Spring\u200Bcampaign');
    const long = ' \u200B' + 'x'.repeat(255) + '\u200C  ';
    expect((await batch({ ...base(1), task_subject: long })).status).toBe(201);
    const tooLong = await batch({ ...base(1), task_subject: 'x'.repeat(256) });
    expect(tooLong.status).toBe(400);
    expect(tooLong.json.detail).toMatch(/task_subject/);
  });

  test('without task_subject the task subject is empty', async () => {
    const res = await batch(base(1));
    const task = await t.api('GET', `/api/v1/emails/tasks/${res.json.task_id}`);
    expect(task.json.taskSubject).toBe('');
  });

  test('100 recipients and 50000/200-character limits are accepted', async () => {
    const res = await batch({
      content: 'c'.repeat(50000),
      body_format: 'text',
      recipients: recipients(100).map((r) => ({ ...r, subject: 's'.repeat(200) })),
    });
    expect(res.status).toBe(201);
    expect(res.json.total).toBe(100);
  });

  const bad = [
    ['missing content', { body_format: 'text', recipients: recipients(1) }, /content/],
    ['content too long', { ...base(1), content: 'c'.repeat(50001) }, /content/],
    ['content not a string', { ...base(1), content: 5 }, /content/],
    ['missing body_format', { content: 'x', recipients: recipients(1) }, /body_format/],
    ['bad body_format', { ...base(1), body_format: 'markdown' }, /body_format/],
    ['recipients missing', { content: 'x', body_format: 'text' }, /recipients/],
    ['recipients empty', { ...base(0) }, /recipients/],
    ['101 recipients', { ...base(101) }, /recipients/],
    [
      'bad email',
      { ...base(1), recipients: [{ email: 'not-an-email', subject: 's' }] },
      /recipients\[0\]\.email/,
    ],
    ['email without dot', { ...base(1), recipients: [{ email: 'a@localhost', subject: 's' }] }, /email/],
    ['missing email', { ...base(1), recipients: [{ subject: 's' }] }, /email/],
    ['missing subject', { ...base(1), recipients: [{ email: 'a@example.com' }] }, /subject/],
    [
      'subject too long',
      { ...base(1), recipients: [{ email: 'a@example.com', subject: 's'.repeat(201) }] },
      /subject/,
    ],
    [
      'bad variable name',
      {
        ...base(1),
        recipients: [{ email: 'a@example.com', subject: 's', variables: { 'first-name': 'x' } }],
      },
      /first-name/,
    ],
    [
      'non-string variable value',
      { ...base(1), recipients: [{ email: 'a@example.com', subject: 's', variables: { n: 5 } }] },
      /variables\.n/,
    ],
    [
      'variables not an object',
      { ...base(1), recipients: [{ email: 'a@example.com', subject: 's', variables: ['x'] }] },
      /variables/,
    ],
    [
      'nickname not a string',
      { ...base(1), recipients: [{ email: 'a@example.com', subject: 's', nickname: 1 }] },
      /nickname/,
    ],
    ['task_subject not a string', { ...base(1), task_subject: 7 }, /task_subject/],
  ];
  test.each(bad)('400: %s (nothing charged)', async (_n, body, detail) => {
    const res = await batch(body);
    expect(res.status).toBe(400);
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/bad-request`);
    expect(res.json.detail).toMatch(detail);
    expect((await balance()).monthlyEdm).toBe(1000);
  });

  test('the second bad recipient is named in the detail', async () => {
    const res = await batch({ ...base(1), recipients: [...recipients(2), { email: 'bad@', subject: 's' }] });
    expect(res.json.detail).toMatch(/recipients\[2\]\.email/);
  });
});

describe('personalized send', () => {
  test('201: one task for the request, one mail per email, 1 EDM each', async () => {
    const res = await personalized({
      task_subject: '  Personal  ',
      emails: [
        email(1),
        email(2, { body_format: 'html', content: '<p>Hi name</p>', variables: { name: 'Zed' } }),
      ],
    });
    expect(res.status).toBe(201);
    expect(res.json.total).toBe(2);
    expect(res.json.tasks).toEqual([
      { task_id: expect.any(Number), mail_id: expect.any(Number), email: 'p1@example.com' },
      { task_id: res.json.tasks[0].task_id, mail_id: expect.any(Number), email: 'p2@example.com' },
    ]);
    expect(await balance()).toMatchObject({ monthlyEdm: 998 });
    const task = await t.api('GET', `/api/v1/emails/tasks/${res.json.tasks[0].task_id}`);
    expect(task.json).toMatchObject({
      totalCount: 2,
      taskSubject: 'Personal',
      content: '',
      bodyFormat: 'text',
    });
    const m2 = await t.api('GET', `/api/v1/emails/mails/${res.json.tasks[1].mail_id}`);
    expect(m2.json).toMatchObject({ content: '<p>Hi Zed</p>', bodyFormat: 'html', subject: 'S2' });
  });

  test('task shape per-mail (control route): one task per mail, each with the task_subject; reset goes back', async () => {
    expect((await t.control('GET', '/task-shape')).json).toEqual({ taskShape: 'per-request' });
    expect((await t.control('POST', '/task-shape', { taskShape: 'per-mail' })).json).toEqual({
      taskShape: 'per-mail',
    });
    const res = await personalized({ task_subject: 'Launch · #abc', emails: [email(1), email(2), email(3)] });
    expect(res.status).toBe(201);
    const taskIds = res.json.tasks.map((m) => m.task_id);
    expect(new Set(taskIds).size).toBe(3);
    expect(res.json.tasks.map((m) => m.email)).toEqual([
      'p1@example.com',
      'p2@example.com',
      'p3@example.com',
    ]);
    for (const [i, { task_id: taskId, mail_id: mailId }] of res.json.tasks.entries()) {
      const task = await t.api('GET', `/api/v1/emails/tasks/${taskId}`);
      expect(task.json).toMatchObject({ totalCount: 1, taskSubject: 'Launch · #abc' });
      expect(task.json.mails.map((m) => [m.mailId, m.recipientEmail])).toEqual([
        [mailId, `p${i + 1}@example.com`],
      ]);
    }
    const bySubject = await t.api('GET', '/api/v1/emails/tasks?task_subject=%23abc&page_size=100');
    expect(bySubject.json.total).toBe(3);
    expect(await balance()).toMatchObject({ monthlyEdm: 997 });
    expect((await t.control('POST', '/task-shape', { taskShape: 'per-chunk' })).status).toBe(400);
    t.sb.state.reset();
    expect((await t.control('GET', '/task-shape')).json).toEqual({ taskShape: 'per-request' });
  });

  test('402 when the quota runs out part-way: nothing deducted, nothing sent', async () => {
    await t.control('POST', '/accounts', { key: DEMO_KEYS.low, monthlyEdm: 2, addonEdm: 1 });
    const res = await personalized({ emails: [email(1), email(2), email(3), email(4)] }, DEMO_KEYS.low);
    expect(res.status).toBe(402);
    expect(res.json.detail).toMatch(/required 4, available 3/);
    expect(await balance(DEMO_KEYS.low)).toMatchObject({ monthlyEdm: 2, addonEdm: 1 });
    expect(await mails(DEMO_KEYS.low)).toHaveLength(0);
    const ok = await personalized({ emails: [email(1), email(2), email(3)] }, DEMO_KEYS.low);
    expect(ok.status).toBe(201);
    expect(await balance(DEMO_KEYS.low)).toMatchObject({ monthlyEdm: 0, addonEdm: 0 });
  });

  test.each([
    ['emails missing', {}, /emails/],
    ['101 emails', { emails: Array.from({ length: 101 }, (_, i) => email(i)) }, /emails/],
    ['missing content', { emails: [{ ...email(1), content: undefined }] }, /emails\[0\]\.content/],
    ['content too long', { emails: [email(1, { content: 'x'.repeat(50001) })] }, /content/],
    ['bad body_format', { emails: [email(1, { body_format: 'rtf' })] }, /body_format/],
    ['bad email', { emails: [email(1), email(2, { email: 'x@y' })] }, /emails\[1\]\.email/],
    ['subject too long', { emails: [email(1, { subject: 'x'.repeat(201) })] }, /subject/],
    ['bad variable', { emails: [email(1, { variables: { 'a b': 'x' } })] }, /variable/],
    ['task_subject too long', { task_subject: 'y'.repeat(256), emails: [email(1)] }, /task_subject/],
  ])('400: %s', async (_n, body, detail) => {
    const res = await personalized(body);
    expect(res.status).toBe(400);
    expect(res.json.detail).toMatch(detail);
    expect((await balance()).monthlyEdm).toBe(1000);
  });
});
