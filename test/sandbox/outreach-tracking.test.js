'use strict';
const { useSandbox, DEMO_KEYS } = require('./helpers');
const { TIMINGS } = require('../../dev/sandbox');

const t = useSandbox();
const send = async (emails, { subject = 'Hello', taskSubject, key, nickname } = {}) => {
  const res = await t.api('POST', '/api/v1/emails/send/batch', {
    key,
    body: {
      content: 'Hi',
      body_format: 'text',
      task_subject: taskSubject,
      recipients: emails.map((e) => ({ email: e, subject, nickname })),
    },
  });
  expect(res.status).toBe(201);
  return res.json.task_id;
};
const task = async (id, key) => (await t.api('GET', `/api/v1/emails/tasks/${id}`, { key })).json;
const tasks = async (query = '') => t.api('GET', `/api/v1/emails/tasks${query}`);
const mails = async (query = '') => t.api('GET', `/api/v1/emails/mails${query}`);

describe('delivery progression (derived from the clock)', () => {
  test('task and mails: pending -> requested -> sent with callback -> opened; completed', async () => {
    const created = t.clock.now();
    const id = await send(['alice@example.com', 'open.bob@example.com']);
    let d = await task(id);
    expect(d).toMatchObject({
      status: 'pending',
      sentCount: 0,
      completedAt: null,
      createdAt: new Date(created).toISOString(),
    });
    expect(d.mails.map((m) => m.status)).toEqual(['pending', 'pending']);
    expect(d.mails[0]).toMatchObject({ sentAt: null, callbackReceivedAt: null, failureReason: null });

    t.clock.advance(TIMINGS.pendingMs);
    d = await task(id);
    expect(d.status).toBe('requested');
    expect(d.mails.map((m) => m.status)).toEqual(['requested', 'requested']);

    t.clock.advance(TIMINGS.firstResolveMs - TIMINGS.pendingMs);
    d = await task(id);
    expect(d.status).toBe('requested');
    expect(d.mails[0]).toMatchObject({
      status: 'sent',
      sentAt: new Date(created + 5000).toISOString(),
      callbackReceivedAt: null,
    });
    expect(d.mails[1].status).toBe('requested');
    expect(d.sentCount).toBe(1);

    t.clock.advance(TIMINGS.callbackDelayMs + TIMINGS.perMailMs);
    d = await task(id);
    expect(d.mails[0].callbackReceivedAt).toBe(new Date(created + 8000).toISOString());
    expect(d.sentCount).toBe(2);

    t.clock.advance(TIMINGS.taskFinalMs);
    d = await task(id);
    expect(d).toMatchObject({
      status: 'completed',
      sentCount: 2,
      failedCount: 0,
      openedCount: 0,
      completedAt: new Date(created + TIMINGS.taskFinalMs).toISOString(),
    });

    t.clock.advance(TIMINGS.openDelayMs);
    d = await task(id);
    expect(d.openedCount).toBe(1);
  });

  test('failure rule: local part starting with "bounce" or a .invalid domain fails; partial and failed tasks', async () => {
    const partial = await send(['ok@example.com', 'bounce.x@example.com', 'y@nowhere.invalid']);
    const failed = await send(['Bounce@example.com']);
    t.clock.advance(60000);
    const p = await task(partial);
    expect(p).toMatchObject({ status: 'partial', sentCount: 1, failedCount: 2 });
    expect(p.mails[1]).toMatchObject({ status: 'failed', sentAt: null, callbackReceivedAt: null });
    expect(p.mails[1].failureReason).toMatch(/bounce/i);
    expect(p.mails[2].failureReason).toMatch(/domain/i);
    expect((await task(failed)).status).toBe('failed');
  });

  test('tasks and mails of another key are 404', async () => {
    const id = await send(['a@example.com']);
    const d = await task(id);
    expect((await t.api('GET', `/api/v1/emails/tasks/${id}`, { key: DEMO_KEYS.low })).status).toBe(404);
    const mailRes = await t.api('GET', `/api/v1/emails/mails/${d.mails[0].mailId}`, { key: DEMO_KEYS.low });
    expect(mailRes.status).toBe(404);
    expect(mailRes.json.type).toBe(`${t.sb.outreachUrl}/errors/not-found`);
    expect((await t.api('GET', '/api/v1/emails/tasks/999999')).status).toBe(404);
    expect((await t.api('GET', '/api/v1/emails/tasks/abc')).status).toBe(400);
    const list = await t.api('GET', '/api/v1/emails/tasks', { key: DEMO_KEYS.low });
    expect(list.json.total).toBe(0);
  });

  test('mail detail has every field plus content and bodyFormat', async () => {
    const id = await send(['a@example.com'], { nickname: 'Al' });
    const d = await task(id);
    const m = (await t.api('GET', `/api/v1/emails/mails/${d.mails[0].mailId}`)).json;
    expect(Object.keys(m).sort()).toEqual(
      [
        'mailId',
        'taskId',
        'recipientEmail',
        'recipientNickname',
        'subject',
        'status',
        'sentAt',
        'callbackReceivedAt',
        'failureReason',
        'content',
        'bodyFormat',
      ].sort(),
    );
    expect(m).toMatchObject({ taskId: id, recipientEmail: 'a@example.com', recipientNickname: 'Al' });
  });
});

describe('GET /emails/tasks', () => {
  async function seedTasks() {
    const a = await send(['a1@example.com', 'bounce@example.com'], {
      subject: 'Spring offer',
      taskSubject: 'Spring',
      nickname: 'Annie',
    });
    t.clock.advance(60000);
    const b = await send(['b1@example.com'], {
      subject: 'Summer sale',
      taskSubject: 'Summer',
      nickname: 'Bert',
    });
    t.clock.advance(60000);
    const c = await send(['c1@example.com'], { subject: 'Autumn news', taskSubject: 'Autumn' });
    return { a, b, c };
  }

  test('defaults: page 1, page_size 20, newest first; record fields', async () => {
    const { a, b, c } = await seedTasks();
    const res = await tasks();
    expect(res.json).toMatchObject({ total: 3, page: 1, page_size: 20 });
    expect(res.json.data.map((x) => x.taskId)).toEqual([c, b, a]);
    expect(Object.keys(res.json.data[0]).sort()).toEqual(
      [
        'taskId',
        'totalCount',
        'status',
        'sentCount',
        'failedCount',
        'openedCount',
        'taskSubject',
        'createdAt',
        'completedAt',
      ].sort(),
    );
    expect(res.json.data.find((x) => x.taskId === a).status).toBe('partial');
    expect(res.json.data.find((x) => x.taskId === c).status).toBe('pending');
  });

  test('filters: task_ids, subject, task_subject, statuses, recipient_email, recipient_nickname, created range', async () => {
    const { a, b, c } = await seedTasks();
    const ids = async (q) => (await tasks(q)).json.data.map((x) => x.taskId).sort();
    expect(await ids(`?task_ids=${a},${c}`)).toEqual([a, c].sort());
    expect(await ids('?subject=SUMMER')).toEqual([b]);
    expect(await ids('?task_subject=aut')).toEqual([c]);
    expect(await ids('?statuses=partial,completed')).toEqual([a, b].sort());
    expect(await ids('?statuses=pending')).toEqual([c]);
    expect(await ids('?recipient_email=B1@example.com')).toEqual([b]);
    expect(await ids('?recipient_email=b1@example')).toEqual([]);
    expect(await ids('?recipient_nickname=ann')).toEqual([a]);
    const bTime = (await task(b)).createdAt;
    expect(await ids(`?created_from=${encodeURIComponent(bTime)}`)).toEqual([b, c].sort());
    expect(await ids(`?created_to=${encodeURIComponent(bTime)}`)).toEqual([a, b].sort());
    expect(await ids(`?created_from=${bTime}&created_to=${bTime}`)).toEqual([b]);
  });

  test('sort_by, sort_order and paging', async () => {
    const { a, b, c } = await seedTasks();
    const order = async (q) => (await tasks(q)).json.data.map((x) => x.taskId);
    expect(await order('?sort_by=task_id&sort_order=asc')).toEqual([a, b, c]);
    expect(await order('?sort_by=created_at&sort_order=asc')).toEqual([a, b, c]);
    expect(await order('?sort_by=task_id')).toEqual([c, b, a]);
    const p2 = await tasks('?page=2&page_size=2&sort_order=asc');
    expect(p2.json).toMatchObject({ total: 3, page: 2, page_size: 2 });
    expect(p2.json.data.map((x) => x.taskId)).toEqual([c]);
  });

  test.each([
    ['page_size 0', '?page_size=0'],
    ['page_size 101', '?page_size=101'],
    ['page 0', '?page=0'],
    ['sort_by bad', '?sort_by=subject'],
    ['sort_order bad', '?sort_order=up'],
    ['statuses bad', '?statuses=sent'],
    ['task_ids bad', '?task_ids=1,x'],
    ['created_from bad', '?created_from=yesterday'],
  ])('400: %s', async (_n, q) => {
    const res = await tasks(q);
    expect(res.status).toBe(400);
    expect(res.json.type).toBe(`${t.sb.outreachUrl}/errors/bad-request`);
  });
});

describe('GET /emails/mails', () => {
  async function seedMails() {
    const a = await send(['a1@example.com', 'bounce@example.com', 'open.a3@example.com'], {
      subject: 'Alpha',
      nickname: 'Ann',
    });
    t.clock.advance(30000);
    const b = await send(['b1@example.com'], { subject: 'Beta' });
    const all = (await task(a)).mails.concat((await task(b)).mails);
    return { a, b, all };
  }

  test('defaults: sent_at desc with unsent last; page 1, page_size 20', async () => {
    const { all } = await seedMails();
    const res = await mails();
    expect(res.json).toMatchObject({ total: 4, page: 1, page_size: 20 });
    const order = res.json.data.map((m) => m.recipientEmail);
    // sent: a1 (t+5s), open.a3 (t+5.04s); failed bounce and pending b1 have no sentAt -> last
    expect(order.slice(0, 2)).toEqual(['open.a3@example.com', 'a1@example.com']);
    expect(order.slice(2).sort()).toEqual(['b1@example.com', 'bounce@example.com']);
    expect(all).toHaveLength(4);
  });

  test('filters: task_ids, mail_ids, subject, statuses, recipient_email, recipient_nickname', async () => {
    const { a, b, all } = await seedMails();
    const emails = async (q) => (await mails(q)).json.data.map((m) => m.recipientEmail).sort();
    expect(await emails(`?task_ids=${b}`)).toEqual(['b1@example.com']);
    expect((await emails(`?task_ids=${a}`)).length).toBe(3);
    expect(await emails(`?mail_ids=${all[0].mailId},${all[3].mailId}`)).toEqual([
      'a1@example.com',
      'b1@example.com',
    ]);
    expect(await emails('?subject=bet')).toEqual(['b1@example.com']);
    expect(await emails('?statuses=failed')).toEqual(['bounce@example.com']);
    expect(await emails('?statuses=sent,pending')).toEqual([
      'a1@example.com',
      'b1@example.com',
      'open.a3@example.com',
    ]);
    expect(await emails('?recipient_email=A1@EXAMPLE.COM')).toEqual(['a1@example.com']);
    expect((await emails('?recipient_nickname=an')).length).toBe(3);
  });

  test('time filters: sent_from/sent_to and received_from/received_to', async () => {
    const { a } = await seedMails();
    const created = Date.parse((await task(a)).createdAt);
    const at = (ms) => encodeURIComponent(new Date(created + ms).toISOString());
    const emails = async (q) => (await mails(q)).json.data.map((m) => m.recipientEmail).sort();
    expect(await emails(`?sent_from=${at(5000)}&sent_to=${at(5000)}`)).toEqual(['a1@example.com']);
    expect(await emails(`?sent_from=${at(5001)}`)).toEqual(['open.a3@example.com']);
    expect(await emails(`?received_from=${at(0)}`)).toEqual(['a1@example.com', 'open.a3@example.com']);
    expect(await emails(`?received_to=${at(8000)}`)).toEqual(['a1@example.com']);
  });

  test('sort_by mail_id, status, callback_received_at; paging', async () => {
    const { all } = await seedMails();
    const ids = all.map((m) => m.mailId).sort((x, y) => x - y);
    const order = async (q) => (await mails(q)).json.data.map((m) => m.mailId);
    expect(await order('?sort_by=mail_id&sort_order=asc')).toEqual(ids);
    expect(await order('?sort_by=mail_id')).toEqual(ids.slice().reverse());
    const byStatus = (await mails('?sort_by=status&sort_order=asc')).json.data.map((m) => m.status);
    expect(byStatus).toEqual(['failed', 'pending', 'sent', 'sent']);
    const byCallback = (await mails('?sort_by=callback_received_at&sort_order=asc')).json.data;
    expect(byCallback.slice(0, 2).map((m) => m.recipientEmail)).toEqual([
      'a1@example.com',
      'open.a3@example.com',
    ]);
    expect(byCallback.slice(2).every((m) => m.callbackReceivedAt === null)).toBe(true);
    const page = await mails('?sort_by=mail_id&sort_order=asc&page=2&page_size=3');
    expect(page.json.data.map((m) => m.mailId)).toEqual([ids[3]]);
  });

  test.each([
    ['page_size 101', '?page_size=101'],
    ['sort_by bad', '?sort_by=created_at'],
    ['statuses bad', '?statuses=completed'],
    ['mail_ids bad', '?mail_ids=a'],
    ['sent_from bad', '?sent_from=nope'],
    ['received_to bad', '?received_to=2026-13-45T00:00:00Z'],
  ])('400: %s', async (_n, q) => {
    const res = await mails(q);
    expect(res.status).toBe(400);
  });
});
