'use strict';
// The thread that makes UrlFetchApp's HTTP requests. The main thread posts a batch on `port` and blocks
// in Atomics.wait on `flag`; this worker runs the batch's requests in parallel with node:http(s), posts the
// results and wakes the main thread, which takes them with receiveMessageOnPort.
const { workerData } = require('node:worker_threads');
const http = require('node:http');
const https = require('node:https');

const { port, flag } = workerData;
const signal = new Int32Array(flag);
// A connection per request, closed after its answer: a kept-alive one that the server closes for idleness (Node's
// 5 s) as the next request goes out resets that request, which UrlFetchApp never shows a script. On a loaded
// machine it happened between two batches and the add-on posted and read them again (bench figures that differed).
const agents = {
  'http:': new http.Agent({ keepAlive: false }),
  'https:': new https.Agent({ keepAlive: false }),
};

function once(req, redirectsLeft) {
  return new Promise((resolve) => {
    let url;
    try {
      url = new URL(req.url);
    } catch {
      return resolve({ ok: false, code: 'EINVALIDURL', message: 'Invalid URL' });
    }
    const lib = url.protocol === 'https:' ? https : url.protocol === 'http:' ? http : null;
    if (!lib)
      return resolve({ ok: false, code: 'EPROTOCOL', message: `Unsupported protocol ${url.protocol}` });
    const headers = { ...req.headers };
    if (req.body) headers['Content-Length'] = String(req.body.length);
    let settled = false;
    const done = (r) => {
      if (!settled) {
        settled = true;
        resolve(r);
      }
    };
    const request = lib.request(
      url,
      {
        method: req.method,
        headers,
        agent: agents[url.protocol],
        rejectUnauthorized: req.validateHttpsCertificates !== false,
      },
      (res) => {
        const chunks = [];
        res.on('data', (c) => chunks.push(c));
        res.on('error', (e) => done({ ok: false, code: e.code || 'ERESPONSE', message: e.message }));
        res.on('aborted', () => done({ ok: false, code: 'ECONNRESET', message: 'response aborted' }));
        res.on('end', () => {
          const body = Buffer.concat(chunks);
          const location = res.headers.location;
          if (req.followRedirects && location && [301, 302, 303, 307, 308].includes(res.statusCode)) {
            if (redirectsLeft <= 0)
              return done({ ok: false, code: 'EREDIRECTS', message: 'Too many redirects' });
            const next = { ...req, url: new URL(location, url).toString() };
            if (
              res.statusCode === 303 ||
              ((res.statusCode === 301 || res.statusCode === 302) && req.method === 'POST')
            ) {
              next.method = 'GET';
              next.body = null;
              next.headers = Object.fromEntries(
                Object.entries(req.headers).filter(([k]) => !/^content-(type|length)$/i.test(k)),
              );
            }
            return once(next, redirectsLeft - 1).then(done);
          }
          const raw = [];
          for (let i = 0; i < res.rawHeaders.length; i += 2)
            raw.push([res.rawHeaders[i], res.rawHeaders[i + 1]]);
          done({
            ok: true,
            status: res.statusCode,
            headers: raw,
            body: new Uint8Array(body),
            finalUrl: url.toString(),
          });
        });
      },
    );
    request.setTimeout(req.timeoutMs, () => {
      done({ ok: false, code: 'ETIMEDOUT', message: `Timeout after ${req.timeoutMs} ms` });
      request.destroy();
    });
    request.on('error', (e) => done({ ok: false, code: e.code || 'EUNKNOWN', message: e.message }));
    if (req.body) request.write(Buffer.from(req.body));
    request.end();
  });
}

port.on('message', async (msg) => {
  const results = await Promise.all(msg.requests.map((r) => once(r, 10)));
  port.postMessage({ id: msg.id, results });
  Atomics.store(signal, 0, msg.id);
  Atomics.notify(signal, 0);
});
