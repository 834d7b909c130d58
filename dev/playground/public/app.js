// The playground page: draws the emulated spreadsheet and forwards what the user does (selection, edits,
// menu clicks, answers to alerts, google.script.run calls from sidebars and dialogs) to the local server,
// which runs the real dist/Code.js in the Apps Script emulator. Every text from the add-on or the sheet is
// rendered with textContent (or a srcdoc iframe for the add-on's own HTML), never innerHTML.
(function () {
  'use strict';

  var ROW_H = 24; // px, as --row-h in style.css
  var HEAD_W = 46; // the row numbers' column
  var MIN_ROWS = 60;
  var MIN_COLS = 12;

  var state = null; // last state from the server
  var info = {}; // sandbox URLs, keys, entry-point names
  var bridgeSource = '';
  var activeSheet = null;
  var sel = null; // { r1, c1, r2, c2, cr, cc } (1-based; cr/cc the current cell, the anchor)
  var selectSeq = 0; // selection messages sent; a state older than our last selection does not move it
  var selectionSent = Promise.resolve();
  var stateShown = false; // the first state's selection is where the page opens, not a move to scroll to
  var cellEls = {}; // "r,c" -> td
  var rowHeads = {};
  var colHeads = {};
  var dims = { rows: 0, cols: 0 };
  var dragging = false;
  var editor = null; // { td, input, r, c }
  var gridStale = false; // a state arrived while the editor was open
  var drawnKey = ''; // the sheet the grid shows, as drawn last
  var lastUiSeq = 0;
  var prompts = []; // pending alerts/prompts from the add-on, first shown
  var frames = { sidebar: null, dialog: null }; // { id, kind }
  var frameSeq = 0;
  var returnFocus = null;

  var $ = function (id) {
    return document.getElementById(id);
  };
  function el(tag, className, text) {
    var node = document.createElement(tag);
    if (className) node.className = className;
    if (text != null) node.textContent = text;
    return node;
  }

  // ── A1 notation ───────────────────────────────────────────────────────────────────────────────────────
  function colLetter(c) {
    var s = '';
    while (c > 0) {
      var m = (c - 1) % 26;
      s = String.fromCharCode(65 + m) + s;
      c = Math.floor((c - 1) / 26);
    }
    return s;
  }
  function colNumber(letters) {
    var n = 0;
    for (var i = 0; i < letters.length; i++) n = n * 26 + (letters.charCodeAt(i) - 64);
    return n;
  }
  function a1(r, c) {
    return colLetter(c) + r;
  }
  function rangeA1(s) {
    var top = Math.min(s.r1, s.r2);
    var left = Math.min(s.c1, s.c2);
    var bottom = Math.max(s.r1, s.r2);
    var right = Math.max(s.c1, s.c2);
    return top === bottom && left === right ? a1(top, left) : a1(top, left) + ':' + a1(bottom, right);
  }
  /** 'B2', 'A2:C9', 'Sheet!A:A' → { r1, c1, r2, c2 } (whole columns/rows span the drawn grid); null if invalid. */
  function parseRange(text) {
    var t = String(text || '')
      .trim()
      .replace(/^.*!/, '')
      .replace(/\$/g, '')
      .toUpperCase();
    var m = /^([A-Z]+)?(\d+)?(?::([A-Z]+)?(\d+)?)?$/.exec(t);
    if (!m || (!m[1] && !m[2])) return null;
    var c1 = m[1] ? colNumber(m[1]) : 1;
    var r1 = m[2] ? Number(m[2]) : 1;
    var hasEnd = t.indexOf(':') >= 0;
    var c2 = hasEnd ? (m[3] ? colNumber(m[3]) : dims.cols) : m[1] ? c1 : dims.cols;
    var r2 = hasEnd ? (m[4] ? Number(m[4]) : dims.rows) : m[2] ? r1 : dims.rows;
    if (!r1 || !c1 || !r2 || !c2) return null;
    return { r1: r1, c1: c1, r2: r2, c2: c2, cr: Math.min(r1, r2), cc: Math.min(c1, c2) };
  }

  // ── Server ────────────────────────────────────────────────────────────────────────────────────────────
  /** POSTs to the server; `onReply` runs before the state the reply carries is drawn. */
  function post(path, body, onReply) {
    return fetch(path, {
      method: 'POST',
      headers: { 'Content-Type': 'application/json' },
      body: JSON.stringify(body || {}),
    }).then(function (res) {
      return res.json().then(function (data) {
        if (onReply) onReply();
        if (data && data.state) applyState(data.state);
        if (!res.ok && !data.error) throw new Error('HTTP ' + res.status);
        return data;
      });
    });
  }

  // The page is busy from the moment it asks for a run until the reply, as well as while the server says
  // so: the server's "busy" event comes later than the click that started the run.
  var serverBusy = false;
  var pending = 0;
  function showBusy() {
    document.body.dataset.busy = serverBusy || pending > 0 ? 'true' : 'false';
  }
  function whileBusy(promise) {
    pending++;
    showBusy();
    var done = function () {
      pending--;
      showBusy();
    };
    promise.then(done, done);
    return promise;
  }

  /** Runs an entry point as one execution; resolves with { ok, result } or { ok: false, error }. */
  function run(name, args, kind) {
    return whileBusy(
      selectionSent.then(function () {
        return post('/api/run', { name: name, args: args || [], kind: kind }).catch(function (e) {
          return {
            ok: false,
            error: { name: 'Error', message: 'Playground server unreachable: ' + e.message },
          };
        });
      }),
    );
  }

  /** A function's menu item as the user knows it ("Unlock selected companies"), else its name. */
  function menuLabel(fn) {
    var found = null;
    var look = function (items) {
      (items || []).forEach(function (item) {
        if (item.fn === fn && !found) found = item.label;
        if (item.items) look(item.items);
      });
    };
    (info.menus || []).forEach(function (menu) {
      look(menu.items);
    });
    return found || fn;
  }

  function connectEvents() {
    var source = new EventSource('/api/events');
    source.addEventListener('info', function (e) {
      info = JSON.parse(e.data);
      renderStatus();
    });
    source.addEventListener('state', function (e) {
      applyState(JSON.parse(e.data));
    });
    source.addEventListener('ui', function (e) {
      handleUiEvent(JSON.parse(e.data));
    });
    source.addEventListener('prompt', function (e) {
      var p = JSON.parse(e.data);
      if (
        !prompts.some(function (q) {
          return q.id === p.id;
        })
      )
        prompts.push(p);
      if (prompts[0] === p) showPrompt();
    });
    source.addEventListener('prompt-done', function (e) {
      var id = JSON.parse(e.data).id;
      var wasShown = prompts.length && prompts[0].id === id;
      prompts = prompts.filter(function (q) {
        return q.id !== id;
      });
      if (wasShown) showPrompt();
    });
    source.addEventListener('busy', function (e) {
      var busy = JSON.parse(e.data);
      $('busy').textContent = busy.failed
        ? 'The emulator stopped: ' + busy.failed + ' (restart npm start)'
        : busy.running
          ? 'Running ' + menuLabel(busy.running) + '…'
          : '';
      serverBusy = !!busy.running;
      showBusy();
    });
    source.onerror = function () {
      $('busy').textContent = 'Disconnected from the playground server; retrying…';
    };
  }

  // ── State ─────────────────────────────────────────────────────────────────────────────────────────────
  function applyState(next) {
    if (state && next.version < state.version) return;
    state = next;
    renderStatus();
    renderClock();
    if (!info.menus || JSON.stringify(info.menus) !== JSON.stringify(next.menus)) {
      info.menus = next.menus;
      renderMenu();
    }
    var serverOwnsSelection = next.selectSeq >= selectSeq;
    var selectedBefore = activeSheet + '!' + (sel ? rangeA1(sel) : '');
    if (serverOwnsSelection || !activeSheet || !findSheet(activeSheet)) {
      if (activeSheet !== next.activeSheet) enterSheet(next.activeSheet);
      var r = next.selection ? parseRange(next.selection.range) : null;
      var cur = next.selection && next.selection.current ? parseRange(next.selection.current) : null;
      if (r) {
        if (cur) {
          r.cr = cur.r1;
          r.cc = cur.c1;
        }
        sel = r;
      }
    }
    if (!sel) sel = { r1: 1, c1: 1, r2: 1, c2: 1, cr: 1, cc: 1 };
    if (next.title) {
      $('doc-title').textContent = next.title;
      document.title = next.title + ' — Outreach add-on playground';
    }
    renderTabs();
    // Redraw only when what is drawn changed (most executions and every selection leave the grid as it is).
    var key = activeSheet + '\u0000' + JSON.stringify(currentSheet());
    if (key === drawnKey && !editor) paintSelection();
    else if (editor) gridStale = true;
    else renderGrid();
    // A range the add-on activated is scrolled into view, as Sheets does (its last column, then its first).
    if (serverOwnsSelection && stateShown && selectedBefore !== activeSheet + '!' + rangeA1(sel) && !editor) {
      scrollIntoView(sel.r1, sel.c2);
      scrollIntoView(sel.r1, sel.c1);
    }
    stateShown = true;
  }

  function findSheet(name) {
    if (!state) return null;
    for (var i = 0; i < state.sheets.length; i++) if (state.sheets[i].name === name) return state.sheets[i];
    return null;
  }
  function currentSheet() {
    return findSheet(activeSheet) || (state && state.sheets[0]) || null;
  }
  function cellAt(sheet, r, c) {
    var row = sheet && sheet.cells[r - 1];
    return (row && row[c - 1]) || null;
  }

  // ── Sheet tabs ────────────────────────────────────────────────────────────────────────────────────────
  var renaming = false; // a tab's name is being edited: no redraw takes its input away
  function renderTabs() {
    if (renaming) return;
    var tabs = $('tabs');
    tabs.textContent = '';
    state.sheets.forEach(function (sheet) {
      var tab = el('button', 'tab', sheet.name);
      tab.type = 'button';
      tab.dataset.sheet = sheet.name;
      tab.addEventListener('dblclick', function () {
        renameTab(sheet.name);
      });
      tab.setAttribute('role', 'tab');
      tab.setAttribute('aria-selected', String(sheet.name === activeSheet));
      tab.tabIndex = sheet.name === activeSheet ? 0 : -1;
      tab.addEventListener('click', function () {
        switchSheet(sheet.name);
      });
      tab.addEventListener('keydown', function (e) {
        if (e.key !== 'ArrowRight' && e.key !== 'ArrowLeft') return;
        var i = state.sheets.indexOf(sheet) + (e.key === 'ArrowRight' ? 1 : -1);
        var target = state.sheets[(i + state.sheets.length) % state.sheets.length];
        switchSheet(target.name);
        var next = tabs.querySelector('[aria-selected="true"]');
        if (next) next.focus();
      });
      tabs.appendChild(tab);
    });
  }

  // Each tab keeps its own scroll position: leaving a sheet scrolled right or down does not carry over.
  var scrolls = {};
  var scrollOnDraw = null;
  function enterSheet(name) {
    var wrap = $('grid-wrap');
    if (activeSheet) scrolls[activeSheet] = { top: wrap.scrollTop, left: wrap.scrollLeft };
    activeSheet = name;
    scrollOnDraw = scrolls[name] || { top: 0, left: 0 };
  }

  function switchSheet(name) {
    if (name === activeSheet) return;
    commitEditor(false);
    enterSheet(name);
    sel = { r1: 1, c1: 1, r2: 1, c2: 1, cr: 1, cc: 1 };
    renderTabs();
    renderGrid();
    sendSelection();
  }

  // ── Grid ──────────────────────────────────────────────────────────────────────────────────────────────
  // Every row of the sheet is in the grid's height, as in Sheets; only the rows near the scrolled-to place
  // are drawn (frozen rows always), between two spacers as tall as the rows they stand for. A row is
  // ROW_H px unless a wrapped cell made it taller when it was last drawn (then its measured height counts).
  function columnWidths(sheet, cols) {
    var widths = [];
    var set = sheet.columnWidths || {};
    for (var c = 1; c <= cols; c++) {
      if (set[c] > 0) {
        widths.push(Math.max(24, Math.min(600, Number(set[c]))));
        continue;
      }
      var longest = 0;
      for (var r = 1; r <= Math.min(sheet.rows, 200); r++) {
        var cell = cellAt(sheet, r, c);
        if (cell && cell.t) longest = Math.max(longest, cell.t.length);
      }
      widths.push(Math.max(84, Math.min(280, longest * 7 + 14)));
    }
    return widths;
  }

  var layout = null; // { rows, cols, widths, lefts, hidden, frozen, filter, tops, headH }
  var heights = {}; // sheet name -> { row: measured height } of rows taller than ROW_H
  var drawnWindow = { from: 0, to: -1 }; // the non-frozen rows drawn now

  /** tops[r]: the y of row r below the column headers (hidden rows take no room); tops[rows + 1]: the end. */
  function rowTops(rows, hidden) {
    var tall = heights[activeSheet] || {};
    var tops = new Float64Array(rows + 2);
    for (var r = 1; r <= rows; r++) tops[r + 1] = tops[r] + (hidden[r] ? 0 : tall[r] || ROW_H);
    return tops;
  }

  function renderGrid() {
    gridStale = false;
    var sheet = currentSheet();
    drawnKey = activeSheet + '\u0000' + JSON.stringify(sheet);
    var wrap = $('grid-wrap');
    // Where the grid is scrolled (or, on entering a sheet, where it was left), kept across the redraw.
    var scroll = scrollOnDraw || { top: wrap.scrollTop, left: wrap.scrollLeft };
    scrollOnDraw = null;
    var table = $('grid');
    table.textContent = '';
    cellEls = {};
    rowHeads = {};
    colHeads = {};
    layout = null;
    drawnWindow = { from: 0, to: -1 };
    if (!sheet) return renderCharts(sheet);
    var rows = Math.max(sheet.maxRows || 0, sheet.rows, MIN_ROWS);
    var cols = Math.max(sheet.cols + 2, MIN_COLS, sel ? Math.max(sel.c1, sel.c2) + 1 : 0);
    var widths = columnWidths(sheet, cols);
    // As in Sheets, empty columns fill the window (up to the sheet's last column).
    var room = $('grid-wrap').clientWidth - HEAD_W;
    var total = widths.reduce(function (a, b) {
      return a + b;
    }, 0);
    while (total < room && cols < (sheet.maxCols || 26)) {
      cols++;
      widths.push(100);
      total += 100;
    }
    cols = Math.min(cols, Math.max(sheet.maxCols || cols, sheet.cols));
    widths = widths.slice(0, cols);
    dims = { rows: rows, cols: cols };
    var hidden = {};
    (sheet.hiddenRows || []).forEach(function (r) {
      hidden[r] = true;
    });
    var lefts = [0, 0];
    widths.forEach(function (w, i) {
      lefts[i + 2] = lefts[i + 1] + w;
    });
    layout = {
      rows: rows,
      cols: cols,
      widths: widths,
      lefts: lefts,
      hidden: hidden,
      frozen: Math.min(sheet.frozenRows || 0, rows),
      filter: sheet.filter ? parseRange(sheet.filter) : null,
      tops: rowTops(rows, hidden),
      headH: ROW_H,
    };

    var colgroup = el('colgroup');
    var first = el('col');
    first.style.width = HEAD_W + 'px';
    colgroup.appendChild(first);
    widths.forEach(function (w) {
      var col = el('col');
      col.style.width = w + 'px';
      colgroup.appendChild(col);
    });
    table.appendChild(colgroup);
    table.style.width = HEAD_W + lefts[cols + 1] + 'px';

    var thead = el('thead');
    var headRow = el('tr');
    var corner = el('th', 'corner');
    corner.setAttribute('aria-label', 'Select all');
    headRow.appendChild(corner);
    for (var c = 1; c <= cols; c++) {
      var th = el('th', 'col-head', colLetter(c));
      th.dataset.c = c;
      th.setAttribute('scope', 'col');
      colHeads[c] = th;
      headRow.appendChild(th);
    }
    thead.appendChild(headRow);
    table.appendChild(thead);
    table.appendChild(el('tbody'));
    // The table is as tall as every row before it is scrolled (its spacers are drawn below).
    table.style.height = layout.headH + layout.tops[rows + 1] + 'px';
    wrap.scrollTop = scroll.top;
    wrap.scrollLeft = scroll.left;
    drawRows(true);
    renderCharts(sheet);
  }

  /** The first non-frozen row at or below `y` (px below the column headers). */
  function rowAtY(y) {
    var tops = layout.tops;
    var lo = layout.frozen + 1;
    var hi = layout.rows;
    while (lo < hi) {
      var mid = (lo + hi) >> 1;
      if (tops[mid + 1] <= y) lo = mid + 1;
      else hi = mid;
    }
    return lo;
  }

  /** The rows to draw for the grid's scroll position: those in view, and more on both sides. */
  function wantedWindow() {
    var wrap = $('grid-wrap');
    var frozenH = layout.tops[layout.frozen + 1];
    var top = rowAtY(wrap.scrollTop + frozenH);
    var bottom = rowAtY(wrap.scrollTop + wrap.clientHeight);
    return {
      from: Math.max(layout.frozen + 1, top - 50),
      to: Math.min(layout.rows, bottom + 200),
      top: top,
      bottom: bottom,
    };
  }

  /** Draws the rows around the scroll position (`force`: even when those drawn still cover the view). */
  function drawRows(force) {
    if (!layout) return;
    var want = wantedWindow();
    var have = drawnWindow;
    if (!force && want.top >= have.from && want.bottom <= have.to) return;
    var sheet = currentSheet();
    var tbody = $('grid').tBodies[0];
    tbody.textContent = '';
    Object.keys(cellEls).forEach(function (key) {
      delete cellEls[key];
    });
    Object.keys(rowHeads).forEach(function (key) {
      delete rowHeads[key];
    });
    for (var r = 1; r <= layout.frozen; r++) drawRow(tbody, sheet, r);
    tbody.appendChild(spacer(layout.tops[want.from] - layout.tops[layout.frozen + 1]));
    for (r = want.from; r <= want.to; r++) drawRow(tbody, sheet, r);
    tbody.appendChild(spacer(layout.tops[layout.rows + 1] - layout.tops[want.to + 1]));
    $('grid').style.height = '';
    drawnWindow = { from: want.from, to: want.to };
    measureRows(want);
    paintSelection();
  }

  function spacer(height) {
    var tr = el('tr', 'spacer');
    tr.setAttribute('aria-hidden', 'true');
    var td = el('td');
    td.colSpan = layout.cols + 1;
    td.style.height = Math.max(0, height) + 'px';
    tr.appendChild(td);
    return tr;
  }

  function drawRow(tbody, sheet, r) {
    if (layout.hidden[r]) return;
    var tr = el('tr');
    tr.dataset.r = r;
    if (r <= layout.frozen) tr.className = 'frozen' + (r === layout.frozen ? ' frozen-last' : '');
    var rh = el('th', 'row-head', String(r));
    rh.dataset.r = r;
    rh.setAttribute('scope', 'row');
    if (r > 1 && layout.hidden[r - 1]) {
      tr.classList.add('after-hidden');
      rh.title = 'Rows above are hidden by a filter';
    }
    rowHeads[r] = rh;
    tr.appendChild(rh);
    var filter = layout.filter;
    for (var c = 1; c <= layout.cols; c++) {
      var cell = cellAt(sheet, r, c);
      var td = el('td', null, cell && cell.t ? cell.t : '');
      td.dataset.r = r;
      td.dataset.c = c;
      if (cell) decorate(td, cell);
      if (filter && r === filter.r1 && c >= filter.c1 && c <= filter.c2) {
        td.classList.add('filter-head');
        td.title = (td.title ? td.title + '\n\n' : '') + 'Filter on ' + sheet.filter;
      }
      var typed = activeSheet + '!' + r + ',' + c;
      if (Object.prototype.hasOwnProperty.call(pendingEdits, typed)) showPending(td, pendingEdits[typed]);
      cellEls[r + ',' + c] = td;
      tr.appendChild(td);
    }
    tbody.appendChild(tr);
  }

  /**
   * Rows drawn taller than ROW_H (a wrapped cell) keep their height for the spacers; frozen rows stick right
   * under the column headers and each other, with no gap a scrolled row could show through.
   */
  function measureRows(want) {
    var tall = heights[activeSheet] || (heights[activeSheet] = {});
    var changed = false;
    var stick = layout.headH;
    for (var r = 1; r <= layout.rows; r++) {
      if (r > layout.frozen && r < want.from) r = want.from;
      if (r > want.to) break;
      var head = rowHeads[r];
      if (!head) continue;
      var h = head.parentNode.offsetHeight;
      if (r <= layout.frozen) {
        Array.prototype.forEach.call(head.parentNode.children, setTop(stick));
        stick += h;
      }
      if (h !== (tall[r] || ROW_H)) {
        if (h === ROW_H) delete tall[r];
        else tall[r] = h;
        changed = true;
      }
    }
    if (!changed) return;
    layout.tops = rowTops(layout.rows, layout.hidden);
    var spacers = $('grid').tBodies[0].querySelectorAll('tr.spacer td');
    spacers[0].style.height = layout.tops[want.from] - layout.tops[layout.frozen + 1] + 'px';
    spacers[1].style.height = layout.tops[layout.rows + 1] - layout.tops[want.to + 1] + 'px';
  }
  function setTop(top) {
    return function (child) {
      child.style.top = top + 'px';
    };
  }

  function decorate(td, cell) {
    if (cell.k === 'number' || cell.k === 'date') td.classList.add('num');
    if (cell.k === 'boolean') td.classList.add('bool');
    if (cell.x) {
      // A checkbox, as Sheets draws one: a click on the box toggles it.
      td.classList.add('checkbox');
      td.textContent = '';
      var box = el('span', 'checkbox-box', cell.t);
      box.setAttribute('role', 'checkbox');
      box.setAttribute('aria-checked', cell.t === '☑' ? 'true' : 'false');
      td.appendChild(box);
    }
    if (cell.k === 'error') td.classList.add('err');
    if (cell.k === 'unevaluated') td.classList.add('unevaluated');
    var tip = [];
    if (cell.n) {
      td.classList.add('has-note');
      tip.push(cell.n);
    }
    if (cell.t && cell.t.length > 30) tip.push(cell.t);
    if (tip.length) td.title = tip.join('\n\n');
    var s = cell.s;
    if (s) {
      if (s.bold) td.style.fontWeight = 'bold';
      if (s.italic) td.style.fontStyle = 'italic';
      if (s.strike) td.style.textDecoration = 'line-through';
      if (s.color) td.style.color = s.color;
      if (s.background) td.style.backgroundColor = s.background;
      if (s.align) td.style.textAlign = s.align;
      if (s.wrap) {
        td.style.whiteSpace = 'normal';
      }
    }
  }

  var painted = [];
  function paintSelection() {
    painted.forEach(function (node) {
      node.classList.remove('selected', 'current', 'active');
    });
    painted = [];
    if (!sel) return;
    var top = Math.min(sel.r1, sel.r2);
    var bottom = Math.max(sel.r1, sel.r2);
    var left = Math.min(sel.c1, sel.c2);
    var right = Math.max(sel.c1, sel.c2);
    var single = top === bottom && left === right;
    for (var r = top; r <= bottom; r++) {
      if (!layout) break;
      if (r > layout.frozen && r < drawnWindow.from) r = drawnWindow.from;
      if (r > drawnWindow.to) break;
      if (rowHeads[r]) {
        rowHeads[r].classList.add('active');
        painted.push(rowHeads[r]);
      }
      for (var c = left; c <= right; c++) {
        var td = cellEls[r + ',' + c];
        if (!td) continue;
        if (!single) td.classList.add('selected');
        painted.push(td);
      }
    }
    for (var cc = left; cc <= right; cc++) {
      if (colHeads[cc]) {
        colHeads[cc].classList.add('active');
        painted.push(colHeads[cc]);
      }
    }
    var cur = cellEls[sel.cr + ',' + sel.cc];
    if (cur) {
      cur.classList.add('current');
      painted.push(cur);
    }
    $('name-box').value = rangeA1(sel);
    var cell = cellAt(currentSheet(), sel.cr, sel.cc);
    if (document.activeElement !== $('formula-input')) {
      $('formula-input').value = cell
        ? cell.x
          ? String(cell.t === '☑').toUpperCase() // a checkbox holds TRUE or FALSE
          : cell.f != null
            ? cell.f
            : cell.e != null
              ? cell.e
              : cell.t || ''
        : '';
    }
    $('grid-wrap').setAttribute('aria-activedescendant', '');
    $('grid-wrap').setAttribute(
      'aria-label',
      'Spreadsheet grid, ' + activeSheet + ', selection ' + rangeA1(sel),
    );
  }

  /**
   * Scrolls the grid so that the cell is in view (below the frozen rows), and draws its rows; a row or column
   * of 0 leaves that direction as it is.
   */
  function scrollIntoView(r, c) {
    if (!layout) return;
    var wrap = $('grid-wrap');
    var keepRow = !r;
    var keepColumn = !c;
    r = Math.max(1, Math.min(layout.rows, r));
    c = Math.max(1, Math.min(layout.cols, c));
    if (!keepRow && r > layout.frozen) {
      var top = layout.tops[r];
      var bottom = layout.tops[r + 1];
      var frozenH = layout.tops[layout.frozen + 1];
      var visible = wrap.clientHeight - layout.headH;
      if (top - frozenH < wrap.scrollTop) wrap.scrollTop = top - frozenH;
      else if (bottom > wrap.scrollTop + visible) wrap.scrollTop = bottom - visible;
    }
    var left = layout.lefts[c];
    var right = layout.lefts[c + 1];
    var wide = wrap.clientWidth - HEAD_W;
    if (!keepColumn && left < wrap.scrollLeft) wrap.scrollLeft = left;
    else if (!keepColumn && right > wrap.scrollLeft + wide) wrap.scrollLeft = right - wide;
    drawRows(false);
  }

  /**
   * The Name box: 'B2', 'A2:C9', 'Contacts!A1' or "'Demo list'!A7001" selects that range (on that sheet)
   * and scrolls to its first cell, as Sheets does. False when the text names no range here.
   */
  function goTo(text) {
    var m = /^\s*(?:'((?:[^']|'')+)'|([^'!]+))!(.*)$/.exec(String(text || ''));
    var sheetName = m ? (m[1] != null ? m[1].replace(/''/g, "'") : m[2].trim()) : null;
    if (sheetName && !findSheet(sheetName)) return false;
    var r = parseRange(m ? m[3] : text);
    if (!r) return false;
    if (sheetName && sheetName !== activeSheet) {
      switchSheet(sheetName);
      r = parseRange(m[3]); // whole rows and columns span the sheet now drawn
    }
    var clamp = function (n, most) {
      return Math.max(1, Math.min(most, n));
    };
    var most = Math.max(dims.cols, (currentSheet() && currentSheet().maxCols) || 26);
    r = {
      r1: clamp(r.r1, dims.rows),
      r2: clamp(r.r2, dims.rows),
      c1: clamp(r.c1, most),
      c2: clamp(r.c2, most),
    };
    r.cr = Math.min(r.r1, r.r2);
    r.cc = Math.min(r.c1, r.c2);
    var wider = Math.max(r.c1, r.c2) > dims.cols;
    sel = r;
    if (wider)
      renderGrid(); // the columns up to the one asked for are drawn
    else paintSelection();
    scrollIntoView(r.cr, r.cc);
    sendSelection();
    return true;
  }

  function setSelection(next, send) {
    sel = next;
    paintSelection();
    // The moving end is shown; a whole column or row selected from its header moves nothing (as in Sheets).
    var wholeColumns = dims && sel.r1 === 1 && sel.r2 >= dims.rows;
    var wholeRows = dims && sel.c1 === 1 && sel.c2 >= dims.cols;
    scrollIntoView(wholeColumns ? 0 : sel.r2, wholeRows ? 0 : sel.c2);
    if (send) sendSelection();
  }

  function sendSelection() {
    if (!sel || !activeSheet) return;
    selectSeq++;
    var body = { sheet: activeSheet, range: rangeA1(sel), current: a1(sel.cr, sel.cc), seq: selectSeq };
    selectionSent = post('/api/select', body).catch(function () {});
  }

  // Mouse: click selects, shift-click extends from the current cell, drag extends, headers select lines.
  function onMouseDown(e) {
    if (e.button !== 0) return;
    var target = e.target;
    if (editor && editor.td.contains(target)) return;
    var td = target.closest('td');
    var th = target.closest('th');
    commitEditor(false);
    $('grid-wrap').focus({ preventScroll: true });
    if (td && td.dataset.r) {
      var r = Number(td.dataset.r);
      var c = Number(td.dataset.c);
      if (!e.shiftKey && target.closest('.checkbox-box')) {
        setSelection({ r1: r, c1: c, r2: r, c2: c, cr: r, cc: c }, true);
        toggleCheckboxes(a1(r, c));
        e.preventDefault();
        return;
      }
      if (e.shiftKey && sel)
        setSelection({ r1: sel.cr, c1: sel.cc, r2: r, c2: c, cr: sel.cr, cc: sel.cc }, false);
      else setSelection({ r1: r, c1: c, r2: r, c2: c, cr: r, cc: c }, false);
      dragging = true;
      e.preventDefault();
    } else if (th && th.dataset.c) {
      var col = Number(th.dataset.c);
      var fromC = e.shiftKey && sel ? sel.cc : col;
      setSelection({ r1: 1, c1: fromC, r2: dims.rows, c2: col, cr: 1, cc: fromC }, true);
      e.preventDefault();
    } else if (th && th.dataset.r) {
      var row = Number(th.dataset.r);
      var fromR = e.shiftKey && sel ? sel.cr : row;
      setSelection({ r1: fromR, c1: 1, r2: row, c2: dims.cols, cr: fromR, cc: 1 }, true);
      e.preventDefault();
    }
  }
  function onMouseOver(e) {
    if (!dragging) return;
    var td = e.target.closest('td');
    if (!td || !td.dataset.r) return;
    var r = Number(td.dataset.r);
    var c = Number(td.dataset.c);
    if (r === sel.r2 && c === sel.c2) return;
    sel = { r1: sel.r1, c1: sel.c1, r2: r, c2: c, cr: sel.cr, cc: sel.cc };
    paintSelection();
  }
  function onMouseUp() {
    if (!dragging) return;
    dragging = false;
    sendSelection();
  }

  function moveSelection(dr, dc, extend) {
    if (!sel) return;
    var sheet = currentSheet();
    var hidden = {};
    ((sheet && sheet.hiddenRows) || []).forEach(function (r) {
      hidden[r] = true;
    });
    var baseR = extend ? sel.r2 : sel.cr;
    var baseC = extend ? sel.c2 : sel.cc;
    var r = baseR + dr;
    while (hidden[r] && r > 1 && r < dims.rows) r += dr || 1;
    r = Math.max(1, Math.min(dims.rows, r));
    var c = Math.max(1, Math.min(dims.cols, baseC + dc));
    if (extend) setSelection({ r1: sel.r1, c1: sel.c1, r2: r, c2: c, cr: sel.cr, cc: sel.cc }, true);
    else setSelection({ r1: r, c1: c, r2: r, c2: c, cr: r, cc: c }, true);
  }

  function onGridKey(e) {
    if (editor || e.target !== $('grid-wrap')) return;
    var k = e.key;
    var moves = { ArrowUp: [-1, 0], ArrowDown: [1, 0], ArrowLeft: [0, -1], ArrowRight: [0, 1] };
    if (moves[k]) {
      e.preventDefault();
      moveSelection(moves[k][0], moves[k][1], e.shiftKey);
    } else if (k === 'Tab') {
      e.preventDefault();
      moveSelection(0, e.shiftKey ? -1 : 1, false);
    } else if (k === 'Enter' || k === 'F2') {
      e.preventDefault();
      openEditor(null);
    } else if (k === 'Delete' || k === 'Backspace') {
      e.preventDefault();
      clearSelection();
    } else if (k === ' ' && selectionHasCheckbox()) {
      e.preventDefault();
      toggleCheckboxes(rangeA1(sel));
    } else if (k.length === 1 && !e.ctrlKey && !e.metaKey && !e.altKey) {
      e.preventDefault();
      openEditor(k);
    }
  }

  // ── Editing ───────────────────────────────────────────────────────────────────────────────────────────
  function openEditor(initial) {
    if (!sel) return;
    var td = cellEls[sel.cr + ',' + sel.cc];
    if (!td) return;
    var cell = cellAt(currentSheet(), sel.cr, sel.cc);
    var input = el('input', 'cell-editor');
    input.setAttribute('aria-label', 'Edit ' + a1(sel.cr, sel.cc));
    input.spellcheck = false;
    input.value =
      initial != null
        ? initial
        : cell
          ? cell.f != null
            ? cell.f
            : cell.e != null
              ? cell.e
              : cell.t || ''
          : '';
    editor = { td: td, input: input, r: sel.cr, c: sel.cc, sheet: activeSheet };
    td.textContent = '';
    td.classList.add('editing');
    td.appendChild(input);
    input.focus();
    input.setSelectionRange(input.value.length, input.value.length);
    input.addEventListener('keydown', function (e) {
      // The selection moves at once, as in Sheets: what the user types next goes to the next cell while
      // this edit is still on its way to the emulator.
      if (e.key === 'Enter') {
        e.preventDefault();
        commitEditor(true);
        moveSelection(1, 0, false);
      } else if (e.key === 'Tab') {
        e.preventDefault();
        commitEditor(true);
        moveSelection(0, e.shiftKey ? -1 : 1, false);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        cancelEditor();
      }
    });
    input.addEventListener('input', function () {
      $('formula-input').value = input.value;
    });
    input.addEventListener('blur', function () {
      if (editor && editor.input === input) commitEditor(false);
    });
  }

  function cancelEditor() {
    if (!editor) return;
    editor = null;
    renderGrid();
    $('grid-wrap').focus({ preventScroll: true });
  }

  /** Sends the editor's text to the emulator as a user edit; resolves once the new state is drawn. */
  function commitEditor(refocus) {
    if (!editor) return Promise.resolve();
    var e = editor;
    editor = null;
    var text = e.input.value;
    e.td.classList.remove('editing');
    var key = e.sheet + '!' + e.r + ',' + e.c;
    pendingEdits[key] = text; // shown as typed until a state that has it is drawn
    drawnKey = ''; // the next state redraws the grid even if the edit changed nothing
    if (refocus) $('grid-wrap').focus({ preventScroll: true });
    if (gridStale) renderGrid();
    else showPending(e.td, text);
    return editCells(e.sheet, a1(e.r, e.c), text, function () {
      if (pendingEdits[key] !== text) return;
      delete pendingEdits[key];
      drawnKey = ''; // the same state may have been drawn already (events stream), with the cell pending
    });
  }

  var pendingEdits = {}; // "sheet!r,c" -> the text typed there, its edit not answered yet
  function showPending(td, text) {
    td.classList.add('pending');
    td.textContent = text;
  }

  // Edits reach the emulator in the order they were made (two requests in flight may arrive swapped).
  var editsSent = Promise.resolve();
  function editCells(sheet, range, text, onReply) {
    return sendInOrder(function () {
      return post('/api/edit', { sheet: sheet, range: range, input: text }, onReply);
    });
  }
  function sendInOrder(send) {
    var done = editsSent
      .then(function () {
        return selectionSent;
      })
      .then(send)
      .then(function (res) {
        if (!res.ok)
          showToast({ title: 'Edit failed', message: res.error ? res.error.message : 'Unknown error' });
      })
      .catch(function (err) {
        showToast({ title: 'Edit failed', message: err.message });
      });
    editsSent = done;
    return done;
  }

  /** Whether a checkbox lies in the selection (Space toggles them there, as in Sheets). */
  function selectionHasCheckbox() {
    var sheet = currentSheet();
    if (!sel || !sheet) return false;
    for (var r = Math.min(sel.r1, sel.r2); r <= Math.max(sel.r1, sel.r2); r++) {
      for (var c = Math.min(sel.c1, sel.c2); c <= Math.max(sel.c1, sel.c2); c++) {
        var cell = cellAt(sheet, r, c);
        if (cell && cell.x) return true;
      }
    }
    return false;
  }

  function toggleCheckboxes(range) {
    var sheet = activeSheet;
    return sendInOrder(function () {
      return post('/api/toggle', { sheet: sheet, range: range });
    });
  }

  function clearSelection() {
    if (!sel) return;
    editCells(activeSheet, rangeA1(sel), '');
  }

  // ── Menu ──────────────────────────────────────────────────────────────────────────────────────────────
  function renderMenu() {
    var popup = $('extensions-popup');
    popup.textContent = '';
    var menus = info.menus || [];
    if (!menus.length) {
      popup.appendChild(el('div', 'menu-empty', 'No add-on menu (onOpen added none)'));
      return;
    }
    menus.forEach(function (menu) {
      popup.appendChild(submenu(menu.name, menu.items));
    });
    popup.appendChild(el('div', 'menu-separator'));
    popup.appendChild(submenu('Playground demo', DEMO_ITEMS));
  }

  // The playground's own menu (not the add-on's): demo data, a slow service, where bounces and opens come from.
  var DEMO_ITEMS = [
    { label: 'Add a demo mailing list (7,000 rows)', demo: 'mailing-list' },
    { label: 'Add a list with a bounce spike (300 rows)', demo: 'spike-list' },
    { label: 'Add 300 demo companies', demo: 'companies' },
    { label: 'Copy the first contact of each company to a list', demo: 'first-contacts' },
    { separator: true },
    { label: 'Slow service: on', demo: 'slow-on' },
    { label: 'Slow service: off', demo: 'slow-off' },
    { separator: true },
    { label: 'How to see a bounce, an open, the progress dialog', demo: 'help' },
    { label: 'Show my Gmail (replies, out of office, unsubscribe, bounces)', demo: 'inbox' },
  ];

  function runDemo(action) {
    showToast({ title: 'Playground demo', message: 'Working…', seconds: -1 });
    post('/api/demo', { action: action }).then(
      function (data) {
        var failed = data && data.ok === false;
        showToast({
          title: 'Playground demo',
          message: failed ? data.error.message : data.message,
          seconds: action === 'help' ? -1 : 15,
        });
      },
      function (e) {
        showToast({ title: 'Playground demo', message: e.message, seconds: -1 });
      },
    );
  }

  /** A menu item that opens a nested menu (the add-on's own menu, or one of its sub-menus). */
  function submenu(label, items) {
    var holder = el('div', 'menu-root');
    var opener = el('button', 'menu-item has-sub', label);
    opener.type = 'button';
    opener.setAttribute('role', 'menuitem');
    opener.setAttribute('aria-haspopup', 'menu');
    opener.setAttribute('aria-expanded', 'false');
    var sub = el('div', 'menu-popup');
    sub.setAttribute('role', 'menu');
    sub.setAttribute('aria-label', label);
    sub.hidden = true;
    items.forEach(function (item) {
      if (item.separator) {
        sub.appendChild(el('div', 'menu-separator'));
        return;
      }
      if (item.items) {
        sub.appendChild(submenu(item.label, item.items));
        return;
      }
      var btn = el('button', 'menu-item', item.label);
      btn.type = 'button';
      btn.setAttribute('role', 'menuitem');
      if (item.fn) btn.dataset.fn = item.fn;
      if (item.disabled) disable(btn, item.disabled);
      btn.addEventListener('click', function () {
        if (item.disabled) return;
        closeMenus();
        if (item.action) item.action();
        else if (item.demo) runDemo(item.demo);
        else runMenuItem(item);
      });
      sub.appendChild(btn);
    });
    var open = function (focusFirst) {
      // one open sub-menu per level
      Array.prototype.forEach.call(holder.parentNode.children, function (sibling) {
        if (sibling === holder || !sibling.classList.contains('menu-root')) return;
        sibling.querySelector('.menu-popup').hidden = true;
        sibling.querySelector('.menu-item').setAttribute('aria-expanded', 'false');
      });
      sub.hidden = false;
      opener.setAttribute('aria-expanded', 'true');
      if (focusFirst) {
        var firstItem = sub.querySelector('.menu-item');
        if (firstItem) firstItem.focus();
      }
    };
    opener.addEventListener('click', function () {
      open(true);
    });
    opener.addEventListener('mouseenter', function () {
      open(false);
    });
    opener.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowRight' || e.key === 'Enter' || e.key === ' ') {
        e.preventDefault();
        open(true);
      }
    });
    sub.addEventListener('keydown', function (e) {
      if (e.key === 'ArrowLeft') {
        e.preventDefault();
        e.stopPropagation();
        sub.hidden = true;
        opener.setAttribute('aria-expanded', 'false');
        opener.focus();
      }
    });
    holder.appendChild(opener);
    holder.appendChild(sub);
    return holder;
  }

  function openMenu() {
    var popup = $('extensions-popup');
    popup.hidden = false;
    $('extensions-menu').setAttribute('aria-expanded', 'true');
    var first = popup.querySelector('.menu-item');
    if (first) first.focus();
  }
  /** The open menu: one of the menu bar's, or the context menu; null when none is. */
  function openPopup() {
    return document.querySelector(
      '#menubar > .menu-root > .menu-popup:not([hidden]), #context-menu:not([hidden])',
    );
  }
  function closeMenus() {
    var popups = document.querySelectorAll('#menubar .menu-popup, #context-menu');
    Array.prototype.forEach.call(popups, function (popup) {
      popup.hidden = true;
    });
    var openers = document.querySelectorAll('#menubar [aria-expanded], #context-menu [aria-expanded]');
    Array.prototype.forEach.call(openers, function (b) {
      b.setAttribute('aria-expanded', 'false');
    });
  }
  function menuKeys(e) {
    var popup = openPopup();
    if (!popup) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      closeMenus();
      var title = popup.previousElementSibling;
      if (title && title.classList.contains('menu-title')) title.focus();
      else $('grid-wrap').focus({ preventScroll: true });
      return;
    }
    if (e.key !== 'ArrowDown' && e.key !== 'ArrowUp') return;
    var menu = document.activeElement && document.activeElement.closest('[role="menu"]');
    if (!menu) return;
    var items = Array.prototype.filter.call(menu.children, function (n) {
      return (
        (n.classList.contains('menu-item') && !n.classList.contains('disabled')) ||
        n.classList.contains('menu-root')
      );
    });
    items = items.map(function (n) {
      return n.classList.contains('menu-root') ? n.querySelector('.menu-item') : n;
    });
    var i = items.indexOf(document.activeElement);
    e.preventDefault();
    var next = items[(i + (e.key === 'ArrowDown' ? 1 : items.length - 1)) % items.length];
    if (next) next.focus();
  }

  // ── Sheet menus: File, Edit, View, Insert, Data, the context menus, the sheet tabs ───────────────────────
  // What a user does to a sheet in Sheets, done to the emulated one with the Apps Script method of the same
  // name (dev/playground/emulator-state.js STRUCTURE_EDITS) as the user's edit. The few items that mean
  // nothing here (one file, no history, no sharing) stay in the menus, disabled, saying why.
  var sortHeader = false; // "Data has header row", as the advanced sorting options last said

  /** The selection's rows and columns: { top, bottom, left, right, rows, cols }. */
  function selBounds() {
    var s = sel || { r1: 1, r2: 1, c1: 1, c2: 1 };
    var top = Math.min(s.r1, s.r2);
    var bottom = Math.max(s.r1, s.r2);
    var left = Math.min(s.c1, s.c2);
    var right = Math.max(s.c1, s.c2);
    return {
      top: top,
      bottom: bottom,
      left: left,
      right: right,
      rows: bottom - top + 1,
      cols: right - left + 1,
    };
  }
  function plural(n, one, many) {
    return n + ' ' + (n === 1 ? one : many);
  }
  function rowsLabel(b) {
    return b.rows === 1 ? 'row ' + b.top : 'rows ' + b.top + ' – ' + b.bottom;
  }
  function colsLabel(b) {
    return b.cols === 1
      ? 'column ' + colLetter(b.left)
      : 'columns ' + colLetter(b.left) + ' – ' + colLetter(b.right);
  }

  /** Sends one structure edit of the user's; the state it answers with is drawn. */
  function sheetEdit(action, args, sheetName) {
    commitEditor(false);
    var name = sheetName || activeSheet;
    return whileBusy(
      sendInOrder(function () {
        return post('/api/structure', { sheet: name, action: action, args: args || {} });
      }),
    );
  }

  /** A menu item that makes one structure edit (`disabled`: why it cannot here, or false). */
  function editItem(label, action, args, disabled) {
    return {
      label: label,
      disabled: disabled || false,
      action: function () {
        sheetEdit(action, args);
      },
    };
  }

  function insertItems(b) {
    var rows = plural(b.rows, 'row', 'rows');
    var cols = plural(b.cols, 'column', 'columns');
    return [
      editItem('Insert ' + rows + ' above', 'insertRowsBefore', { at: b.top, count: b.rows }),
      editItem('Insert ' + rows + ' below', 'insertRowsAfter', { at: b.bottom, count: b.rows }),
      editItem('Insert ' + cols + ' left', 'insertColumnsBefore', { at: b.left, count: b.cols }),
      editItem('Insert ' + cols + ' right', 'insertColumnsAfter', { at: b.right, count: b.cols }),
    ];
  }
  function deleteItems(b) {
    return [
      editItem('Delete ' + rowsLabel(b), 'deleteRows', { at: b.top, count: b.rows }),
      editItem('Delete ' + colsLabel(b), 'deleteColumns', { at: b.left, count: b.cols }),
      { label: 'Delete values', action: clearSelection },
    ];
  }
  /** Edit › Move: the selected rows one up or down, the selected columns one left or right. */
  function moveItems(b) {
    var rows = b.rows === 1 ? 'Row' : 'Rows';
    var cols = b.cols === 1 ? 'Column' : 'Columns';
    var edge = function (at, where) {
      return at && 'Already at the ' + where + ' of the sheet.';
    };
    var lines = function (at, count, to) {
      return { at: at, count: count, to: to };
    };
    return [
      editItem(rows + ' up', 'moveRows', lines(b.top, b.rows, b.top - 1), edge(b.top === 1, 'top')),
      editItem(
        rows + ' down',
        'moveRows',
        lines(b.top, b.rows, b.bottom + 2),
        edge(b.bottom >= dims.rows, 'bottom'),
      ),
      editItem(cols + ' left', 'moveColumns', lines(b.left, b.cols, b.left - 1), edge(b.left === 1, 'left')),
      editItem(
        cols + ' right',
        'moveColumns',
        lines(b.left, b.cols, b.right + 2),
        edge(b.right >= dims.cols, 'right'),
      ),
    ];
  }

  function sortRangeItems(b) {
    var column = sel ? sel.cc : b.left;
    var by = function (ascending) {
      return { range: rangeA1(sel), column: column, ascending: ascending, header: false };
    };
    return [
      editItem('Sort range by column ' + colLetter(column) + ' (A to Z)', 'sortRange', by(true)),
      editItem('Sort range by column ' + colLetter(column) + ' (Z to A)', 'sortRange', by(false)),
      { label: 'Advanced range sorting options', action: openSortOptions },
    ];
  }
  function sortSheetItems(column) {
    return [
      editItem('Sort sheet by column ' + colLetter(column) + ' (A to Z)', 'sort', {
        column: column,
        ascending: true,
      }),
      editItem('Sort sheet by column ' + colLetter(column) + ' (Z to A)', 'sort', {
        column: column,
        ascending: false,
      }),
    ];
  }
  function copyItems() {
    return [
      { label: 'Copy', action: copySelection },
      {
        label: 'Paste',
        action: function () {
          showToast({
            title: 'Paste',
            message: 'Press Ctrl+V (⌘V) in the grid: a browser lets a page read the clipboard only then.',
          });
        },
      },
    ];
  }

  var NO_FILE_OPS = 'The playground has one spreadsheet, in memory: nothing to copy, share or restore.';
  var MENUS = {
    File: function () {
      return [
        { label: 'Rename…', action: renameSpreadsheet },
        { label: 'Download › Comma-separated values (.csv, this sheet)', action: downloadCsv },
        { separator: true },
        { label: 'Make a copy', disabled: NO_FILE_OPS },
        { label: 'Share', disabled: NO_FILE_OPS },
        { label: 'Version history', disabled: NO_FILE_OPS },
      ];
    },
    Edit: function () {
      var b = selBounds();
      var noHistory = 'The emulator keeps no edit history: nothing to undo.';
      return [
        { label: 'Undo', disabled: noHistory },
        { label: 'Redo', disabled: noHistory },
        { separator: true },
      ]
        .concat(copyItems())
        .concat([{ separator: true }, { label: 'Move', items: moveItems(b) }, { separator: true }])
        .concat(deleteItems(b));
    },
    View: function () {
      var b = selBounds();
      var sheet = currentSheet();
      var frozen = (sheet && sheet.frozenRows) || 0;
      var freeze = function (label, rows) {
        return editItem('Freeze › ' + label + (frozen === rows ? ' ✓' : ''), 'setFrozenRows', { rows: rows });
      };
      return [
        freeze('No rows', 0),
        freeze('1 row', 1),
        freeze('2 rows', 2),
        freeze('Up to row ' + b.bottom, b.bottom),
        { separator: true },
        editItem('Show the rows hidden by hand', 'showRows', { at: 1, count: dims.rows }),
      ];
    },
    Insert: function () {
      var b = selBounds();
      return insertItems(b).concat([
        { separator: true },
        { label: 'Sheet', action: addSheet },
        editItem('Checkbox', 'insertCheckboxes', { range: rangeA1(sel) }),
      ]);
    },
    Data: function () {
      var b = selBounds();
      var sheet = currentSheet();
      var filtered = !!(sheet && sheet.filter);
      return sortSheetItems(sel ? sel.cc : 1).concat([
        { label: 'Sort range', items: sortRangeItems(b) },
        { separator: true },
        filtered
          ? editItem('Remove filter', 'removeFilter', {})
          : editItem('Create a filter', 'createFilter', { range: filterRange(b) }),
      ]);
    },
  };

  /** Sheets' Create a filter on one cell takes the data around it: here the sheet's filled rows and columns. */
  function filterRange(b) {
    var sheet = currentSheet();
    if (b.rows > 1 || b.cols > 1 || !sheet) return rangeA1(sel);
    return 'A1:' + a1(Math.max(sheet.rows, 1), Math.max(sheet.cols, 1));
  }

  /** A popup's items: buttons (disabled ones say why), separators, sub-menus. */
  function fillMenu(popup, items) {
    popup.textContent = '';
    items.forEach(function (item) {
      if (item.separator) return popup.appendChild(el('div', 'menu-separator'));
      if (item.items) return popup.appendChild(submenu(item.label, item.items));
      var btn = el('button', 'menu-item', item.label);
      btn.type = 'button';
      btn.setAttribute('role', 'menuitem');
      if (item.disabled) disable(btn, item.disabled);
      btn.addEventListener('click', function () {
        if (item.disabled) return;
        closeMenus();
        item.action();
      });
      popup.appendChild(btn);
    });
  }

  /** A menu item without meaning here: shown, greyed, its reason as its tooltip. */
  function disable(btn, why) {
    btn.setAttribute('aria-disabled', 'true');
    btn.classList.add('disabled');
    btn.title = why;
  }

  function openSheetMenu(name) {
    var title = $('menu-' + name.toLowerCase());
    var popup = title.nextElementSibling;
    closeMenus();
    fillMenu(popup, MENUS[name]());
    popup.hidden = false;
    title.setAttribute('aria-expanded', 'true');
    var first = popup.querySelector('.menu-item:not(.disabled)');
    if (first) first.focus();
  }

  /** The right-click menu of a cell, a row number, a column letter or a sheet tab. */
  function onContextMenu(e) {
    var target = e.target;
    var tab = target.closest && target.closest('#tabs .tab');
    var td = target.closest && target.closest('#grid td[data-r]');
    var th = target.closest && target.closest('#grid th[data-r], #grid th[data-c]');
    if (!tab && !td && !th) return;
    e.preventDefault();
    var items;
    if (tab) {
      switchSheet(tab.dataset.sheet);
      items = tabItems(tab.dataset.sheet);
    } else {
      selectUnder(td, th);
      var b = selBounds();
      if (th && th.dataset.r) {
        var rowsOnly = insertItems(b).slice(0, 2);
        items = rowsOnly.concat([
          { separator: true },
          deleteItems(b)[0],
          { label: 'Clear ' + rowsLabel(b), action: clearSelection },
          editItem('Hide ' + rowsLabel(b), 'hideRows', { at: b.top, count: b.rows }),
        ]);
      } else if (th && th.dataset.c) {
        items = insertItems(b)
          .slice(2)
          .concat([
            { separator: true },
            deleteItems(b)[1],
            { label: 'Clear ' + colsLabel(b), action: clearSelection },
          ])
          .concat([{ separator: true }])
          .concat(sortSheetItems(b.left));
      } else {
        items = copyItems()
          .concat([{ separator: true }])
          .concat(insertItems(b))
          .concat([{ separator: true }])
          .concat(deleteItems(b))
          .concat(b.rows > 1 ? [{ separator: true }].concat(sortRangeItems(b).slice(0, 2)) : []);
      }
    }
    var menu = $('context-menu');
    closeMenus();
    fillMenu(menu, items);
    menu.hidden = false;
    // At the pointer, kept inside the window.
    var x = Math.min(e.clientX, window.innerWidth - menu.offsetWidth - 4);
    var y = Math.min(e.clientY, window.innerHeight - menu.offsetHeight - 4);
    menu.style.left = Math.max(0, x) + 'px';
    menu.style.top = Math.max(0, y) + 'px';
    var first = menu.querySelector('.menu-item:not(.disabled)');
    if (first) first.focus();
  }

  /** A right-click outside the selection selects what it is on first, as in Sheets. */
  function selectUnder(td, th) {
    var b = selBounds();
    if (td) {
      var r = Number(td.dataset.r);
      var c = Number(td.dataset.c);
      if (r < b.top || r > b.bottom || c < b.left || c > b.right)
        setSelection({ r1: r, c1: c, r2: r, c2: c, cr: r, cc: c }, true);
    } else if (th.dataset.r) {
      var row = Number(th.dataset.r);
      if (row < b.top || row > b.bottom || b.cols < dims.cols)
        setSelection({ r1: row, c1: 1, r2: row, c2: dims.cols, cr: row, cc: 1 }, true);
    } else {
      var col = Number(th.dataset.c);
      if (col < b.left || col > b.right || b.rows < dims.rows)
        setSelection({ r1: 1, c1: col, r2: dims.rows, c2: col, cr: 1, cc: col }, true);
    }
  }

  function tabItems(name) {
    var only = state.sheets.length === 1;
    return [
      {
        label: 'Delete',
        disabled: only ? 'A spreadsheet keeps at least one sheet.' : false,
        action: function () {
          askLocal(
            'Delete sheet',
            'Delete "' + name + '"? Its cells are gone for good.',
            ['CANCEL', 'OK'],
            function (b) {
              if (b === 'OK') sheetEdit('deleteSheet', {}, name);
            },
          );
        },
      },
      {
        label: 'Rename',
        action: function () {
          renameTab(name);
        },
      },
      { separator: true },
      { label: 'Insert sheet', action: addSheet },
    ];
  }

  function addSheet() {
    sheetEdit('insertSheet', { after: activeSheet });
  }

  /** The tab's name becomes an input, as in Sheets: Enter (or leaving it) renames, Escape keeps the name. */
  function renameTab(name) {
    var tab = $('tabs').querySelector('.tab[data-sheet="' + CSS.escape(name) + '"]');
    if (!tab) return;
    var input = el('input', 'tab-rename');
    input.value = name;
    input.setAttribute('aria-label', 'Rename sheet ' + name);
    renaming = true;
    tab.replaceWith(input);
    input.focus();
    input.select();
    var done = false;
    var finish = function (save) {
      if (done) return;
      done = true;
      renaming = false;
      var next = input.value.trim();
      if (save && next && next !== name) {
        sheetEdit('setName', { name: next }, name).then(function () {
          renderTabs();
        });
      } else renderTabs();
    };
    input.addEventListener('keydown', function (e) {
      if (e.key === 'Enter') {
        e.preventDefault();
        finish(true);
      } else if (e.key === 'Escape') {
        e.preventDefault();
        finish(false);
      }
    });
    input.addEventListener('blur', function () {
      finish(true);
    });
  }

  function renameSpreadsheet() {
    askLocal(
      'Rename',
      'New name of the spreadsheet:',
      ['CANCEL', 'OK'],
      function (button, text) {
        if (button === 'OK' && text.trim()) sheetEdit('renameSpreadsheet', { name: text.trim() });
      },
      true,
    );
  }

  /** The selection's shown values, tab-separated (what Ctrl+C in Sheets puts on the clipboard as text). */
  function selectionText() {
    var b = selBounds();
    var sheet = currentSheet();
    var lines = [];
    for (var r = b.top; r <= Math.min(b.bottom, sheet ? sheet.rows : 0); r++) {
      var line = [];
      for (var c = b.left; c <= b.right; c++) {
        var cell = cellAt(sheet, r, c);
        line.push(cell && cell.t ? cell.t : '');
      }
      lines.push(line.join('\t'));
    }
    return lines.join('\n');
  }
  function copySelection() {
    var text = selectionText();
    var copied = navigator.clipboard
      ? navigator.clipboard.writeText(text)
      : Promise.reject(new Error('no clipboard'));
    copied.then(
      function () {
        showToast({ title: 'Copy', message: 'Copied ' + rangeA1(sel) + '.' });
      },
      function (e) {
        showToast({
          title: 'Copy',
          message: 'The browser refused the clipboard (' + e.message + '): use Ctrl+C.',
        });
      },
    );
  }
  function csvField(text) {
    return /[",\n]/.test(text) ? '"' + text.replace(/"/g, '""') + '"' : text;
  }
  function downloadCsv() {
    var sheet = currentSheet();
    if (!sheet) return;
    var lines = sheet.cells.map(function (row) {
      var out = [];
      for (var c = 0; c < sheet.cols; c++) out.push(csvField((row[c] && row[c].t) || ''));
      return out.join(',');
    });
    var link = el('a');
    link.href = URL.createObjectURL(new Blob([lines.join('\n') + '\n'], { type: 'text/csv' }));
    link.download = (state.title || 'Playground') + ' - ' + sheet.name + '.csv';
    document.body.appendChild(link);
    link.click();
    link.remove();
  }

  /** The page's own question in the alert box (no execution waits for it). */
  var localSeq = 0;
  function askLocal(title, message, buttons, then, withInput) {
    prompts.push({
      id: 'local-' + ++localSeq,
      type: withInput ? 'prompt' : 'alert',
      title: title,
      message: message,
      buttons: buttons,
      local: then,
    });
    if (prompts.length === 1) showPrompt();
  }

  /** Data › Sort range › Advanced range sorting options: a header row, the column, the order. */
  function openSortOptions() {
    var b = selBounds();
    var sheet = currentSheet();
    var layer = $('sort-layer');
    var select = $('sort-column');
    select.textContent = '';
    for (var c = b.left; c <= b.right; c++) {
      var head = cellAt(sheet, b.top, c);
      var option = el(
        'option',
        null,
        'Column ' + colLetter(c) + (sortHeader && head && head.t ? ' (' + head.t + ')' : ''),
      );
      option.value = String(c);
      select.appendChild(option);
    }
    select.value = String(sel ? sel.cc : b.left);
    $('sort-header').checked = sortHeader;
    $('sort-range').textContent = 'Sort range ' + rangeA1(sel);
    layer.hidden = false;
    select.focus();
  }
  function closeSortOptions(sort) {
    var layer = $('sort-layer');
    if (layer.hidden) return;
    layer.hidden = true;
    sortHeader = $('sort-header').checked;
    if (sort)
      sheetEdit('sortRange', {
        range: rangeA1(sel),
        column: Number($('sort-column').value),
        ascending: !$('sort-desc').checked,
        header: sortHeader,
      });
    $('grid-wrap').focus({ preventScroll: true });
  }

  function runMenuItem(item) {
    commitEditor(false);
    run(item.fn, [], 'menu').then(function (res) {
      if (!res.ok) showExecutionError(item.label, res.error);
      if (!frames.dialog && !frames.sidebar && !prompts.length) $('grid-wrap').focus({ preventScroll: true });
    });
  }

  function showExecutionError(what, error) {
    // Apps Script shows a failed menu action as an error bar at the top; a toast is close enough here.
    showToast({
      title: 'Error in ' + what,
      message: (error && error.message) || 'Unknown error',
      seconds: 10,
    });
  }

  // ── Toasts ────────────────────────────────────────────────────────────────────────────────────────────
  // One toast at a time, as in Sheets: a new one replaces the last. A negative timeout stays until closed.
  var toastTimer = null;
  function showToast(t) {
    var holder = $('toasts');
    holder.textContent = '';
    clearTimeout(toastTimer);
    var box = el('div', 'toast');
    box.setAttribute('role', 'status');
    var text = el('div', 'toast-text');
    if (t.title) text.appendChild(el('strong', null, t.title));
    text.appendChild(el('span', null, t.message || ''));
    box.appendChild(text);
    var close = el('button', 'toast-close', '×');
    close.type = 'button';
    close.setAttribute('aria-label', 'Dismiss');
    close.addEventListener('click', function () {
      if (box.parentNode) box.parentNode.removeChild(box);
    });
    box.appendChild(close);
    holder.appendChild(box);
    var seconds = t.seconds == null ? 5 : Number(t.seconds);
    if (seconds >= 0) {
      toastTimer = setTimeout(
        function () {
          if (box.parentNode) box.parentNode.removeChild(box);
        },
        Math.max(seconds, 3) * 1000,
      );
    }
  }

  // ── Sidebars and dialogs with the add-on's HTML ───────────────────────────────────────────────────────
  function handleUiEvent(ev) {
    if (ev.seq <= lastUiSeq) return;
    lastUiSeq = ev.seq;
    if (ev.type === 'toast') showToast(ev);
    else if (ev.type === 'sidebar') openFrame('sidebar', ev);
    else if (ev.type === 'dialog') openFrame('dialog', ev);
  }

  function injectBridge(html, frameId) {
    var config = {
      functions: info.functions || [],
      frame: frameId,
      clockOffset: clockOffset(),
      timerScale: info.frameTimerScale || 1,
    };
    var script =
      '<script>window.__playgroundBridge__ = ' +
      JSON.stringify(config).replace(/</g, '\\u003c') +
      ';</' +
      'script><script>' +
      bridgeSource.replace(/<\/script/gi, '<\\/script') +
      '</' +
      'script>' +
      // Arial as Sheets users have it, whatever fonts this machine has (dev/playground/fonts.js).
      '<link rel="stylesheet" href="' +
      location.origin +
      '/fonts.css" />';
    var source = String(html || '');
    var head = /<head\b[^>]*>/i.exec(source);
    if (head)
      return (
        source.slice(0, head.index + head[0].length) + script + source.slice(head.index + head[0].length)
      );
    var doctype = /^\s*<!doctype[^>]*>/i.exec(source);
    if (doctype) return doctype[0] + script + source.slice(doctype[0].length);
    return script + source;
  }

  function makeFrame(kind, ev) {
    var id = kind + '-' + ++frameSeq;
    var iframe = el('iframe');
    iframe.id = kind === 'sidebar' ? 'sidebar-frame' : 'html-dialog-frame';
    iframe.title = ev.title || (kind === 'sidebar' ? 'Add-on sidebar' : 'Add-on dialog');
    iframe.setAttribute('sandbox', 'allow-scripts allow-forms allow-modals allow-popups allow-downloads');
    iframe.dataset.frame = id;
    iframe.srcdoc = injectBridge(ev.html, id);
    return { id: id, iframe: iframe };
  }

  function openFrame(kind, ev) {
    var made = makeFrame(kind, ev);
    if (kind === 'sidebar') {
      var old = $('sidebar-frame');
      old.parentNode.replaceChild(made.iframe, old);
      $('sidebar-title').textContent = ev.title || '';
      $('sidebar').hidden = false;
      $('sidebar').setAttribute('aria-label', ev.title || 'Add-on sidebar');
      frames.sidebar = { id: made.id, kind: kind };
    } else {
      var oldD = $('html-dialog-frame');
      oldD.parentNode.replaceChild(made.iframe, oldD);
      $('html-dialog-title').textContent = ev.title || '';
      made.iframe.style.width = (ev.width || 600) + 'px';
      made.iframe.style.height = (ev.height || 400) + 'px';
      if (!frames.dialog) returnFocus = document.activeElement;
      // A modeless dialog leaves the sheet usable behind it (no backdrop).
      $('html-dialog-layer').classList.toggle('modeless', ev.modal === false);
      $('html-dialog').setAttribute('aria-modal', String(ev.modal !== false));
      $('html-dialog-layer').hidden = false;
      frames.dialog = { id: made.id, kind: kind };
      made.iframe.addEventListener('load', function () {
        made.iframe.focus();
      });
    }
  }

  function closeFrame(kind) {
    if (kind === 'sidebar') {
      $('sidebar').hidden = true;
      var blank = el('iframe');
      blank.id = 'sidebar-frame';
      blank.title = 'Add-on sidebar';
      $('sidebar-frame').parentNode.replaceChild(blank, $('sidebar-frame'));
      frames.sidebar = null;
    } else {
      $('html-dialog-layer').hidden = true;
      var blankD = el('iframe');
      blankD.id = 'html-dialog-frame';
      blankD.title = 'Add-on dialog';
      $('html-dialog-frame').parentNode.replaceChild(blankD, $('html-dialog-frame'));
      frames.dialog = null;
      if (returnFocus && returnFocus.focus) returnFocus.focus({ preventScroll: true });
      else $('grid-wrap').focus({ preventScroll: true });
      returnFocus = null;
    }
  }

  function frameKind(frameId) {
    if (frames.sidebar && frames.sidebar.id === frameId) return 'sidebar';
    if (frames.dialog && frames.dialog.id === frameId) return 'dialog';
    return null;
  }

  function onFrameMessage(event) {
    var data = event.data;
    if (!data || !data.__playground__) return;
    var kind = frameKind(data.frame);
    if (!kind) return;
    var iframe = kind === 'sidebar' ? $('sidebar-frame') : $('html-dialog-frame');
    if (event.source !== iframe.contentWindow) return;
    if (data.type === 'run') {
      var reply = event.source;
      run(data.name, data.args, 'webapp').then(function (res) {
        if (frameKind(data.frame) !== kind) return; // closed meanwhile: Apps Script drops the answer too
        reply.postMessage(
          {
            __playground__: true,
            type: 'result',
            id: data.id,
            ok: res.ok,
            result: res.result,
            error: res.error,
          },
          '*',
        );
      });
    } else if (data.type === 'close') {
      closeFrame(kind);
    } else if (data.type === 'resize' && kind === 'dialog') {
      if (data.width > 0) iframe.style.width = data.width + 'px';
      if (data.height > 0) iframe.style.height = data.height + 'px';
    } else if (data.type === 'focus-editor') {
      $('grid-wrap').focus({ preventScroll: true });
    }
  }

  // ── Alerts and prompts (the add-on's execution waits for the answer) ─────────────────────────────────
  var BUTTON_LABELS = { OK: 'OK', CANCEL: 'Cancel', YES: 'Yes', NO: 'No' };
  function showPrompt() {
    var layer = $('alert-layer');
    var p = prompts[0];
    if (!p) {
      if (!layer.hidden) {
        layer.hidden = true;
        var back = frames.dialog ? $('html-dialog-frame') : $('grid-wrap');
        back.focus({ preventScroll: true });
      }
      return;
    }
    $('alert-title').textContent = p.title || '';
    $('alert-title').hidden = !p.title;
    $('alert-message').textContent = p.message || '';
    var input = $('alert-input');
    input.hidden = p.type !== 'prompt';
    input.value = '';
    var holder = $('alert-buttons');
    holder.textContent = '';
    var buttons = (p.buttons || ['OK']).slice();
    // Secondary buttons first, the affirmative one last and blue (as Sheets draws them).
    buttons.sort(function (x, y) {
      return rank(x) - rank(y);
    });
    var primary = null;
    buttons.forEach(function (name) {
      var b = el('button', name === 'OK' || name === 'YES' ? 'primary' : '', BUTTON_LABELS[name] || name);
      b.type = 'button';
      b.dataset.button = name;
      b.addEventListener('click', function () {
        answerPrompt(p, name);
      });
      holder.appendChild(b);
      if (b.classList.contains('primary')) primary = b;
    });
    layer.hidden = false;
    if (p.type === 'prompt') input.focus();
    else (primary || holder.lastChild).focus();
  }
  function rank(name) {
    return { CANCEL: 0, NO: 1, YES: 2, OK: 3 }[name] || 0;
  }
  function answerPrompt(p, button) {
    prompts = prompts.filter(function (q) {
      return q !== p;
    });
    var text = p.type === 'prompt' ? $('alert-input').value : '';
    showPrompt();
    if (p.local) return p.local(button, text);
    post('/api/prompt', {
      id: p.id,
      button: button,
      text: p.type === 'prompt' ? $('alert-input').value : '',
    });
  }
  function promptKeys(e) {
    var p = prompts[0];
    if (!p || $('alert-layer').hidden) return;
    if (e.key === 'Escape') {
      e.preventDefault();
      answerPrompt(p, 'CLOSE');
    } else if (e.key === 'Enter' && e.target === $('alert-input')) {
      e.preventDefault();
      var buttons = p.buttons || ['OK'];
      answerPrompt(p, buttons.indexOf('OK') >= 0 ? 'OK' : buttons.indexOf('YES') >= 0 ? 'YES' : buttons[0]);
    } else if (e.key === 'Tab') {
      // keep focus inside the alert
      var focusables = Array.prototype.slice.call($('alert').querySelectorAll('button, input:not([hidden])'));
      var i = focusables.indexOf(document.activeElement);
      e.preventDefault();
      var next = focusables[(i + (e.shiftKey ? focusables.length - 1 : 1)) % focusables.length];
      if (next) next.focus();
    }
  }

  // ── Service clock ─────────────────────────────────────────────────────────────────────────────────────
  // The add-on and the sandbox share one clock; moving it on makes mails progress (sent, delivered) and runs
  // the time-driven triggers that come due meanwhile (the hourly tracking refresh), as an hour would.
  var clockAt = { now: 0, seenAt: 0 };
  function pad(n) {
    return (n < 10 ? '0' : '') + n;
  }
  function utcText(ms, seconds) {
    var d = new Date(ms);
    var text = d.getUTCFullYear() + '-' + pad(d.getUTCMonth() + 1) + '-' + pad(d.getUTCDate()) + ' ';
    text += pad(d.getUTCHours()) + ':' + pad(d.getUTCMinutes());
    return (seconds ? text + ':' + pad(d.getUTCSeconds()) : text) + ' UTC';
  }
  /** How far the service clock is ahead of this browser's (the add-on's frames run on it: bridge.js). */
  function clockOffset() {
    return clockAt.seenAt ? clockAt.now - clockAt.seenAt : 0;
  }
  function renderClock() {
    var clock = state && state.clock;
    if (!clock) return;
    if (clock.now !== clockAt.now) {
      clockAt = { now: clock.now, seenAt: Date.now() };
      ['sidebar-frame', 'html-dialog-frame'].forEach(function (id) {
        var frame = $(id);
        if (frame && frame.contentWindow)
          frame.contentWindow.postMessage(
            { __playground__: true, type: 'clock', offset: clockOffset() },
            '*',
          );
      });
    }
    $('clock-now').textContent = utcText(clockAt.now + (Date.now() - clockAt.seenAt), true);
    var next = (clock.triggers || []).slice().sort(function (a, b) {
      return a.nextRunMs - b.nextRunMs;
    })[0];
    $('clock-next').textContent = next
      ? 'next trigger: ' + next.handler + ' at ' + utcText(next.nextRunMs)
      : '';
  }
  // "onHourlyTimer: completed ×24" rather than the same words 24 times (a day moved on at once).
  function runsText(runs) {
    var lines = [];
    var times = {};
    runs.forEach(function (r) {
      var line = r.handler + ': ' + r.status + (r.error ? ' (' + r.error + ')' : '');
      if (!times[line]) lines.push(line);
      times[line] = (times[line] || 0) + 1;
    });
    return lines
      .map(function (line) {
        return times[line] > 1 ? line + ' ×' + times[line] : line;
      })
      .join('; ');
  }
  function advanceClock(ms) {
    whileBusy(post('/api/advance', { ms: ms })).then(function (data) {
      var runs = (data && data.result) || [];
      if (!data.ok) showToast({ title: 'Clock', message: data.error ? data.error.message : 'failed' });
      else if (runs.length)
        showToast({
          title: 'Triggers ran',
          message: runsText(runs),
        });
    });
  }

  // ── Charts ────────────────────────────────────────────────────────────────────────────────────────────
  // An embedded chart is drawn from its range as the sheet holds it now: labels in the first column,
  // numbers in the second, the first row a header. Text is set with textContent.
  var CHART_COLORS = ['#fbbc04', '#4285f4', '#34a853', '#ea4335', '#9aa0a6', '#a142f4'];
  function chartRows(sheet, a1ref) {
    var ref = parseRange(String(a1ref).replace(/^.*!/, ''));
    if (!ref) return [];
    var rows = [];
    for (var r = ref.r1 + 1; r <= ref.r2; r++) {
      var line = sheet.cells[r - 1] || [];
      var label = line[ref.c1 - 1] && line[ref.c1 - 1].t;
      var value = Number(line[ref.c1] && line[ref.c1].t);
      if (label) rows.push({ label: label, value: isFinite(value) ? value : 0 });
    }
    return rows;
  }
  function pieSvg(rows) {
    var NS = 'http://www.w3.org/2000/svg';
    var svg = document.createElementNS(NS, 'svg');
    svg.setAttribute('viewBox', '-1 -1 2 2');
    svg.setAttribute('width', '110');
    svg.setAttribute('height', '110');
    var total = rows.reduce(function (n, row) {
      return n + row.value;
    }, 0);
    var angle = -Math.PI / 2;
    rows.forEach(function (row, i) {
      if (!row.value) return;
      var share = row.value / total;
      var shape;
      if (share >= 0.9999) {
        shape = document.createElementNS(NS, 'circle');
        shape.setAttribute('r', '1');
      } else {
        var end = angle + share * 2 * Math.PI;
        shape = document.createElementNS(NS, 'path');
        shape.setAttribute(
          'd',
          'M0 0 L' +
            Math.cos(angle) +
            ' ' +
            Math.sin(angle) +
            ' A1 1 0 ' +
            (share > 0.5 ? 1 : 0) +
            ' 1 ' +
            Math.cos(end) +
            ' ' +
            Math.sin(end) +
            ' Z',
        );
        angle = end;
      }
      shape.setAttribute('fill', CHART_COLORS[i % CHART_COLORS.length]);
      shape.setAttribute('data-label', row.label);
      svg.appendChild(shape);
    });
    return svg;
  }
  // A bar chart over several ranges (labels in the first, series in the columns of the others, headers in
  // their first row), stacked: one bar per label, a segment per series.
  function seriesOf(sheet, ranges) {
    var labels = chartRows(sheet, ranges[0]).map(function (row) {
      return row.label;
    });
    var series = [];
    ranges.slice(1).forEach(function (a1ref) {
      var ref = parseRange(String(a1ref).replace(/^.*!/, ''));
      if (!ref) return;
      for (var c = ref.c1; c <= ref.c2; c++) {
        var head = (sheet.cells[ref.r1 - 1] || [])[c - 1];
        var values = [];
        for (var r = ref.r1 + 1; r <= ref.r2; r++) {
          var cell = (sheet.cells[r - 1] || [])[c - 1];
          var value = Number(cell && cell.t);
          values.push(isFinite(value) ? value : 0);
        }
        series.push({ name: (head && head.t) || '', values: values });
      }
    });
    return { labels: labels, series: series };
  }
  /**
   * Bars of equal length (each label's total is 100 %) when `percent`, else scaled to the longest; the legend
   * above them for `legend` 'top', none for 'none', else below.
   */
  function barChartBody(data, colors, percent, legendAt) {
    var body = el('div', 'chart-body chart-bars');
    var legend = el('ul', 'chart-legend');
    data.series.forEach(function (s, i) {
      var item = el('li');
      var swatch = el('span', 'chart-swatch');
      swatch.style.background = colors[i % colors.length];
      item.appendChild(swatch);
      item.appendChild(el('span', null, s.name));
      legend.appendChild(item);
    });
    var bars = el('div', 'chart-bar-list');
    var most = 1;
    data.labels.forEach(function (_, k) {
      most = Math.max(
        most,
        data.series.reduce(function (n, s) {
          return n + (s.values[k] || 0);
        }, 0),
      );
    });
    data.labels.forEach(function (label, k) {
      var line = el('div', 'chart-bar-row');
      line.appendChild(el('span', 'chart-bar-label', label));
      var bar = el('span', 'chart-bar');
      var sum = data.series.reduce(function (n, s) {
        return n + (s.values[k] || 0);
      }, 0);
      data.series.forEach(function (s, i) {
        if (!s.values[k]) return;
        var part = el('span', 'chart-bar-part');
        part.style.background = colors[i % colors.length];
        part.style.width = (100 * s.values[k]) / (percent ? sum : most) + '%';
        part.title =
          s.name +
          ': ' +
          s.values[k] +
          (percent ? ' (' + ((100 * s.values[k]) / sum).toFixed(1) + ' %)' : '');
        part.setAttribute('data-series', s.name);
        bar.appendChild(part);
      });
      line.appendChild(bar);
      bars.appendChild(line);
    });
    if (legendAt === 'top') body.appendChild(legend);
    body.appendChild(bars);
    if (legendAt !== 'top' && legendAt !== 'none') body.appendChild(legend);
    return body;
  }
  /** Places a chart as Sheets does: its top-left corner at its anchor cell plus offsets, at its width. */
  function placeChart(figure, chart) {
    var anchor = chart.anchor || { row: 1, col: 1, x: 0, y: 0 };
    if (!layout || anchor.row > layout.rows || anchor.col > layout.cols) return false;
    if (layout.hidden[anchor.row]) return false; // Sheets hides a chart whose anchor row is hidden
    figure.style.left = HEAD_W + layout.lefts[anchor.col] + anchor.x + 'px';
    figure.style.top = layout.headH + layout.tops[anchor.row] + anchor.y + 'px';
    if (chart.width) figure.style.width = chart.width + 'px';
    if (chart.height) figure.style.minHeight = chart.height + 'px';
    return true;
  }
  function renderCharts(sheet) {
    var holder = $('charts');
    holder.textContent = '';
    ((sheet && sheet.charts) || []).forEach(function (chart) {
      if (chart.type === 'BAR' && chart.ranges.length > 1) {
        var bars = el('figure', 'chart');
        bars.setAttribute('data-type', chart.type);
        bars.appendChild(el('figcaption', null, chart.title || 'Chart'));
        var colors = chart.colors && chart.colors.length ? chart.colors : CHART_COLORS;
        bars.appendChild(barChartBody(seriesOf(sheet, chart.ranges), colors, chart.percent, chart.legend));
        if (placeChart(bars, chart)) holder.appendChild(bars);
        return;
      }
      var rows = chartRows(sheet, chart.ranges[0] || '');
      var figure = el('figure', 'chart');
      figure.setAttribute('data-type', chart.type);
      figure.appendChild(el('figcaption', null, chart.title || 'Chart'));
      var body = el('div', 'chart-body');
      body.appendChild(pieSvg(rows));
      var legend = el('ul', 'chart-legend');
      rows.forEach(function (row, i) {
        var item = el('li');
        var swatch = el('span', 'chart-swatch');
        swatch.style.background = CHART_COLORS[i % CHART_COLORS.length];
        item.appendChild(swatch);
        item.appendChild(el('span', null, row.label + ': ' + row.value));
        legend.appendChild(item);
      });
      body.appendChild(legend);
      figure.appendChild(body);
      if (placeChart(figure, chart)) holder.appendChild(figure);
    });
  }

  // ── Status line ───────────────────────────────────────────────────────────────────────────────────────
  // What the add-on uses now (its saved settings, in each state), not what the playground started with.
  var LOOPBACK = /^http:\/\/(127\.\d+\.\d+\.\d+|localhost)(:\d+)?(\/|$)/i;
  function renderStatus() {
    var now = (state && state.settings) || {};
    var outreachUrl = now.outreachUrl || info.outreachUrl || '?';
    var phoneUrl = now.phoneUrl || info.phoneUrl || '?';
    var keys = [now.outreachKey, now.phoneKey].map(function (key) {
      return key || '(none)';
    });
    var offline = LOOPBACK.test(outreachUrl) && LOOPBACK.test(phoneUrl);
    var status = $('status');
    status.textContent = '';
    status.appendChild(el('span', 'demo', now.demoKeys === false ? 'Your keys' : 'Demo keys'));
    status.appendChild(document.createTextNode('Outreach service '));
    status.appendChild(el('code', null, outreachUrl));
    status.appendChild(document.createTextNode(' · phone service '));
    status.appendChild(el('code', null, phoneUrl));
    status.appendChild(
      document.createTextNode(
        ' · keys ' +
          keys.join(' / ') +
          (offline
            ? ' · runs offline: nothing leaves this machine.'
            : ' · a service address is not on this machine.'),
      ),
    );
  }

  // ── Wiring ────────────────────────────────────────────────────────────────────────────────────────────
  function init() {
    var wrap = $('grid-wrap');
    Array.prototype.forEach.call(document.querySelectorAll('.clock-advance'), function (button) {
      button.addEventListener('click', function () {
        advanceClock(Number(button.getAttribute('data-ms')));
      });
    });
    setInterval(renderClock, 1000);
    wrap.addEventListener('mousedown', onMouseDown);
    var scrollFrame = 0;
    wrap.addEventListener('scroll', function () {
      if (scrollFrame) return;
      scrollFrame = requestAnimationFrame(function () {
        scrollFrame = 0;
        if (!editor) drawRows(false);
      });
    });
    wrap.addEventListener('mouseover', onMouseOver);
    document.addEventListener('mouseup', onMouseUp);
    wrap.addEventListener('keydown', onGridKey);
    // Pasting tab-separated text (a list copied from another sheet) fills the cells from the current one.
    document.addEventListener('paste', function (e) {
      if (editor || !sel || document.activeElement !== wrap) return;
      var text = (e.clipboardData || window.clipboardData).getData('text');
      if (!text) return;
      e.preventDefault();
      var values = text
        .replace(/\r/g, '')
        .replace(/\n$/, '')
        .split('\n')
        .map(function (line) {
          return line.split('\t');
        });
      post('/api/paste', { sheet: activeSheet, range: a1(sel.cr, sel.cc), values: values }).then(
        function (res) {
          if (!res.ok)
            showToast({ title: 'Paste failed', message: res.error ? res.error.message : 'Unknown error' });
        },
      );
    });
    wrap.addEventListener('dblclick', function (e) {
      var td = e.target.closest('td');
      if (td && td.dataset.r && !editor) openEditor(null);
    });

    $('extensions-menu').addEventListener('click', function () {
      if ($('extensions-popup').hidden) {
        closeMenus();
        openMenu();
      } else closeMenus();
    });
    $('extensions-menu').addEventListener('keydown', function (e) {
      if (e.key === 'ArrowDown') {
        e.preventDefault();
        openMenu();
      }
    });
    document.addEventListener('keydown', menuKeys);
    document.addEventListener('keydown', promptKeys, true);
    document.addEventListener('mousedown', function (e) {
      if (!e.target.closest('.menu-root, #context-menu')) closeMenus();
    });
    Object.keys(MENUS).forEach(function (name) {
      var root = el('div', 'menu-root');
      var title = el('button', 'menu-title sheet-menu', name);
      title.type = 'button';
      title.id = 'menu-' + name.toLowerCase();
      title.dataset.menu = name;
      title.setAttribute('role', 'menuitem');
      title.setAttribute('aria-haspopup', 'menu');
      title.setAttribute('aria-expanded', 'false');
      var popup = el('div', 'menu-popup');
      popup.setAttribute('role', 'menu');
      popup.setAttribute('aria-label', name);
      popup.hidden = true;
      root.appendChild(title);
      root.appendChild(popup);
      $('menubar').insertBefore(root, $('extensions-menu').parentNode);
      title.addEventListener('click', function () {
        if (title.getAttribute('aria-expanded') === 'true') closeMenus();
        else openSheetMenu(title.dataset.menu);
      });
      title.addEventListener('keydown', function (e) {
        if (e.key !== 'ArrowDown') return;
        e.preventDefault();
        openSheetMenu(title.dataset.menu);
      });
      // With a menu open, pointing at another title opens that one, as in Sheets.
      title.addEventListener('mouseenter', function () {
        var open = openPopup();
        if (open && open.id !== 'context-menu' && open !== title.nextElementSibling)
          openSheetMenu(title.dataset.menu);
      });
    });
    document.addEventListener('contextmenu', onContextMenu);
    $('add-sheet').addEventListener('click', addSheet);
    $('sort-cancel').addEventListener('click', function () {
      closeSortOptions(false);
    });
    $('sort-go').addEventListener('click', function () {
      closeSortOptions(true);
    });
    $('sort-layer').addEventListener('keydown', function (e) {
      if (e.key === 'Escape') closeSortOptions(false);
    });
    $('sort-header').addEventListener('change', function () {
      sortHeader = $('sort-header').checked;
      var keep = $('sort-column').value;
      openSortOptions();
      $('sort-column').value = keep;
    });

    $('name-box').addEventListener('keydown', function (e) {
      if (e.key !== 'Enter') return;
      e.preventDefault();
      if (goTo($('name-box').value)) wrap.focus({ preventScroll: true });
      else $('name-box').value = rangeA1(sel);
    });
    $('formula-input').addEventListener('keydown', function (e) {
      if (e.key === 'Enter') {
        e.preventDefault();
        var text = $('formula-input').value;
        $('formula-input').blur();
        wrap.focus({ preventScroll: true });
        editCells(activeSheet, a1(sel.cr, sel.cc), text).then(function () {
          moveSelection(1, 0, false);
        });
      } else if (e.key === 'Escape') {
        e.preventDefault();
        $('formula-input').blur();
        paintSelection();
        wrap.focus({ preventScroll: true });
      }
    });

    $('sidebar-close').addEventListener('click', function () {
      closeFrame('sidebar');
    });
    $('html-dialog-close').addEventListener('click', function () {
      closeFrame('dialog');
    });
    $('html-dialog-layer').addEventListener('keydown', function (e) {
      if (e.key === 'Escape') closeFrame('dialog');
    });
    $('alert-close').addEventListener('click', function () {
      if (prompts[0]) answerPrompt(prompts[0], 'CLOSE');
    });
    window.addEventListener('message', onFrameMessage);

    fetch('/bridge.js')
      .then(function (res) {
        return res.text();
      })
      .then(function (text) {
        bridgeSource = text;
        return fetch('/api/state');
      })
      .then(function (res) {
        return res.json();
      })
      .then(function (data) {
        info = data.info || {};
        lastUiSeq = data.uiSeq || 0;
        selectSeq = (data.state && data.state.selectSeq) || 0; // a reloaded page continues the numbering
        renderStatus();
        applyState(data.state);
        connectEvents();
        wrap.focus({ preventScroll: true });
        document.body.dataset.ready = 'true';
      })
      .catch(function (e) {
        $('busy').textContent = 'Could not load the playground state: ' + e.message;
      });
  }

  if (document.readyState === 'loading') document.addEventListener('DOMContentLoaded', init);
  else init();
})();
