/* abkit step-through: shows steps computed by stepthrough/steps.py; it computes nothing about the search.
   Each step lists what the drawing shows differently from the step before (changes [node, field, text]);
   going to step k replays the changes since the last reset and repaints only the nodes that changed. */
(function () {
  'use strict';
  var STATES = ['open', 'done', 'pruned', 'eval', 'faint'];

  function Pane(root, data) {
    this.root = root;
    this.steps = data.steps;
    this.els = new Map();
    this.model = new Map();
    this.k = -1;
    this.cur = null;
    this.fields = {};
    var self = this;
    root.querySelectorAll('[data-field]').forEach(function (el) { self.fields[el.getAttribute('data-field')] = el; });
    this.box = root.querySelector('.abk-tree');
    var svg = root.querySelector('svg');
    function entry(name) {
      var e = self.els.get(name);
      if (!e) { e = {}; self.els.set(name, e); }
      return e;
    }
    if (svg) {
      svg.querySelectorAll('g.node').forEach(function (g) {
        var e = entry(g.getAttribute('data-node'));
        e.g = g; e.v = g.querySelector('text.v'); e.wa = g.querySelector('text.wa');
        e.wb = g.querySelector('text.wb'); e.o = g.querySelector('text.o');
      });
      svg.querySelectorAll('line.edge').forEach(function (l) { entry(l.getAttribute('data-node')).edge = l; });
      svg.querySelectorAll('g.cut.slot').forEach(function (c) { entry(c.getAttribute('data-node')).cut = c; });
    }
    this.resets = [];
    var last = 0;
    for (var i = 0; i < this.steps.length; i++) {
      if (this.steps[i].r) { last = i; }
      this.resets.push(last);
    }
  }

  Pane.prototype.apply = function (k, dirty) {
    var step = this.steps[k], model = this.model;
    if (step.r) { model.forEach(function (_, n) { dirty.add(n); }); model.clear(); }
    var changes = step.x || [];
    for (var i = 0; i < changes.length; i++) {
      var n = changes[i][0], m = model.get(n);
      if (!m) { m = {}; model.set(n, m); }
      m[changes[i][1]] = changes[i][2];
      dirty.add(n);
    }
  };

  Pane.prototype.go = function (k) {
    k = Math.max(0, Math.min(this.steps.length - 1, k));
    var dirty = new Set(), self = this;
    if (k === this.k + 1) {
      this.apply(k, dirty);
    } else {
      this.model.forEach(function (_, n) { dirty.add(n); });
      this.model.clear();
      for (var i = this.resets[k]; i <= k; i++) { this.apply(i, dirty); }
    }
    this.k = k;
    dirty.forEach(function (n) { self.paint(n); });
    var step = this.steps[k];
    var old = this.els.get(this.cur);
    if (old && old.g) { old.g.classList.remove('abk-cur'); }
    this.cur = step.n;
    var now = this.els.get(step.n);
    if (now && now.g) { now.g.classList.add('abk-cur'); this.reveal(now.g); }
    this.show('node', step.n + (step.p ? ' (' + step.p + ')' : ''));
    this.show('board', step.g || '—');
    this.show('visit', step.o ? '#' + step.o : '—');
    this.show('window', step.w || '—');
    this.show('value', step.v || '—');
    this.show('bounds', step.b || '—');
    this.show('cut', step.c || '—');
    this.show('say', step.s);
    if (this.fields.step) { this.fields.step.textContent = (k + 1) + ' / ' + this.steps.length; }
  };

  Pane.prototype.show = function (field, text) {
    var el = this.fields[field];
    if (el && el.textContent !== text) { el.textContent = text; }
  };

  Pane.prototype.paint = function (n) {
    var e = this.els.get(n);
    if (!e) { return; }
    var m = this.model.get(n) || {}, s = m.s || '';
    if (e.g) {
      var cl = e.g.classList;
      cl.toggle('abk-seen', !!m.o);
      for (var i = 0; i < STATES.length; i++) { cl.toggle('abk-' + STATES[i], s === STATES[i]); }
      cl.toggle('abk-warn', !!m.w);
      if (e.v) { e.v.textContent = m.v || ''; }
      if (e.wa) { e.wa.textContent = m.wa || ''; }
      if (e.wb) { e.wb.textContent = m.wb || ''; }
      if (e.o) { e.o.textContent = m.o || ''; }
    }
    if (e.edge) {
      e.edge.classList.toggle('abk-pruned', s === 'pruned');
      e.edge.classList.toggle('abk-faint', s === 'faint');
    }
    if (e.cut) { e.cut.classList.toggle('abk-x', !!m.x); }
  };

  /* a wide tree scrolls in its box: keep the current node in view */
  Pane.prototype.reveal = function (g) {
    var box = this.box;
    if (!box || box.scrollWidth <= box.clientWidth + 1) { return; }
    var b = box.getBoundingClientRect(), r = g.getBoundingClientRect();
    if (r.left < b.left + 20 || r.right > b.right - 20) {
      box.scrollLeft += (r.left + r.right) / 2 - (b.left + b.right) / 2;
    }
  };

  function Stepper(el) {
    var data = JSON.parse(el.querySelector('script.abk-data').textContent);
    var self = this;
    this.el = el;
    this.panes = [];
    var boxes = el.querySelectorAll('.abk-pane .abk-tree'), drawn = boxes[0] && boxes[0].querySelector('svg');
    for (var b = 1; b < boxes.length; b++) {   /* the page holds the tree once: each other pane gets a copy */
      if (drawn && !boxes[b].querySelector('svg')) {
        var copy = drawn.cloneNode(true);
        copy.id = drawn.id + '-' + b;
        boxes[b].appendChild(copy);
      }
    }
    el.querySelectorAll('.abk-pane').forEach(function (p, i) { self.panes.push(new Pane(p, data.panes[i])); });
    this.align = data.align || null;
    this.first = (data.first === undefined) ? null : data.first;
    this.n = this.panes[0].steps.length;
    this.k = -1;
    this.timer = null;
    this.buttons = {};
    el.querySelectorAll('[data-go]').forEach(function (b) {
      var what = b.getAttribute('data-go');
      self.buttons[what] = b;
      if (what === 'slider') {
        b.max = String(self.n - 1);
        b.addEventListener('input', function () { self.stop(); self.go(parseInt(b.value, 10)); });
        return;
      }
      b.addEventListener('click', function () { self.act(what); });
    });
    this.first_box = el.querySelector('.abk-first');
    this.list = el.querySelector('.abk-list');
    if (this.list) {
      var steps = this.panes[0].steps, frag = document.createDocumentFragment();
      for (var i = 0; i < steps.length; i++) {
        var li = document.createElement('li');
        li.textContent = steps[i].s;
        li.setAttribute('data-step', String(i));
        if (steps[i].m || i === this.first) { li.classList.add('abk-mark'); }
        frag.appendChild(li);
      }
      this.list.textContent = '';
      this.list.appendChild(frag);
      this.items = this.list.children;
      this.list.addEventListener('click', function (ev) {
        var li = ev.target.closest('li');
        if (li) { self.stop(); self.go(parseInt(li.getAttribute('data-step'), 10)); }
      });
    }
    el.addEventListener('keydown', function (ev) { self.key(ev); });
    el.addEventListener('pointerdown', function () { Stepper.active = self; });
    el.addEventListener('focusin', function () { Stepper.active = self; });
    this.go(0);
  }

  Stepper.prototype.act = function (what) {
    Stepper.active = this;
    if (what === 'play') { if (this.timer) { this.stop(); } else { this.play(); } return; }
    this.stop();
    if (what === 'first') { this.go(0); }
    else if (what === 'prev') { this.go(this.k - 1); }
    else if (what === 'next') { this.go(this.k + 1); }
    else if (what === 'last') { this.go(this.n - 1); }
    else if (what === 'diff' && this.first !== null) { this.go(this.first); }
  };

  Stepper.prototype.key = function (ev) {
    var t = ev.target;
    if (ev.defaultPrevented || ev.altKey || ev.ctrlKey || ev.metaKey ||
        (t && /^(INPUT|TEXTAREA|SELECT|BUTTON)$/.test(t.tagName) && ev.key === ' ') ||
        (t && /^(INPUT|TEXTAREA|SELECT)$/.test(t.tagName))) { return; }
    var map = { ArrowRight: 'next', ArrowDown: 'next', ArrowLeft: 'prev', ArrowUp: 'prev', Home: 'first', End: 'last', ' ': 'play' };
    var what = map[ev.key];
    if (!what) { return; }
    ev.preventDefault();
    this.act(what);
  };

  Stepper.prototype.go = function (k) {
    k = Math.max(0, Math.min(this.n - 1, k));
    this.k = k;
    this.panes[0].go(k);
    for (var i = 1; i < this.panes.length; i++) { this.panes[i].go(this.align ? this.align[k] : k); }
    var b = this.buttons;
    if (b.slider) { b.slider.value = String(k); }
    if (b.prev) { b.prev.disabled = k === 0; }
    if (b.first) { b.first.disabled = k === 0; }
    if (b.next) { b.next.disabled = k === this.n - 1; }
    if (b.last) { b.last.disabled = k === this.n - 1; }
    if (this.first_box) { this.first_box.classList.toggle('abk-here', k === this.first); }
    if (this.items) {
      if (this.on !== undefined && this.items[this.on]) { this.items[this.on].classList.remove('abk-on'); }
      var li = this.items[k];
      li.classList.add('abk-on');
      this.on = k;
      var top = li.offsetTop - this.list.offsetTop;
      if (top < this.list.scrollTop || top > this.list.scrollTop + this.list.clientHeight - li.offsetHeight) {
        this.list.scrollTop = top - this.list.clientHeight / 2;
      }
    }
  };

  Stepper.prototype.play = function () {
    var self = this, b = this.buttons.play;
    if (this.k >= this.n - 1) { this.go(0); }
    if (b) { b.textContent = b.getAttribute('data-pause'); b.setAttribute('aria-pressed', 'true'); }
    this.timer = setInterval(function () {
      if (self.k >= self.n - 1) { self.stop(); } else { self.go(self.k + 1); }
    }, 900);
  };

  Stepper.prototype.stop = function () {
    if (this.timer) { clearInterval(this.timer); this.timer = null; }
    var b = this.buttons.play;
    if (b) { b.textContent = b.getAttribute('data-play'); b.setAttribute('aria-pressed', 'false'); }
  };

  /* a number as a student writes it: 3, -2, 2.5, +∞, -∞, inf; null when empty, NaN when not a number */
  function number(text) {
    var s = String(text).trim().replace(/[\u2212\u2013]/g, '-').replace(/\s+/g, '').toLowerCase();
    if (s === '') { return null; }
    if (/^\+?(∞|inf|infinity)$/.test(s)) { return Infinity; }
    if (/^-(∞|inf|infinity)$/.test(s)) { return -Infinity; }
    if (/^[+-]?(\d+(\.\d*)?|\.\d+)$/.test(s)) { return parseFloat(s); }
    return NaN;
  }

  function Practice(el) {
    var data = JSON.parse(el.querySelector('script.abk-practice-data').textContent);
    var self = this, svg = el.querySelector('.abk-quiz svg');
    this.el = el; this.data = data; this.marked = new Set(); this.leaves = new Map();
    svg.querySelectorAll('g.node').forEach(function (g) {
      var n = g.getAttribute('data-node');
      if (data.leaves.indexOf(n) < 0) { return; }
      self.leaves.set(n, g);
      g.classList.add('abk-leaf');
      g.setAttribute('tabindex', '0');
      g.setAttribute('role', 'checkbox');
      g.setAttribute('aria-checked', 'false');
      g.setAttribute('aria-label', n);
      g.addEventListener('click', function () { self.toggle(n); });
      g.addEventListener('keydown', function (ev) {
        if (ev.key === ' ' || ev.key === 'Enter') { ev.preventDefault(); self.toggle(n); }
      });
    });
    el.querySelector('[data-act=check]').addEventListener('click', function () { self.check(); });
    el.querySelector('[data-act=clear]').addEventListener('click', function () { self.clear(); });
    this.verdict = el.querySelector('.abk-verdict');
    this.steps = el.querySelector('.abk-practice-steps');
  }

  Practice.prototype.toggle = function (n) {
    var g = this.leaves.get(n), on = !this.marked.has(n);
    if (on) { this.marked.add(n); } else { this.marked.delete(n); }
    g.classList.toggle('abk-marked', on);
    g.setAttribute('aria-checked', on ? 'true' : 'false');
  };

  Practice.prototype.clear = function () {
    var self = this;
    Array.from(this.marked).forEach(function (n) { self.toggle(n); });
    this.el.querySelectorAll('input[data-answer], input[data-bound]').forEach(function (i) { i.value = ''; i.classList.remove('abk-bad'); });
    this.leaves.forEach(function (g) { g.classList.remove('abk-bad'); });
    this.verdict.hidden = true;
  };

  Practice.prototype.check = function () {
    var d = this.data, wrong = [], self = this;
    function fill(template, got) { return template.split('\u2063got\u2063').join(got); }
    this.leaves.forEach(function (g, n) {
      var bad = self.marked.has(n) !== (d.pruned.indexOf(n) >= 0);
      g.classList.toggle('abk-bad', bad);
      if (bad) { wrong.push(['leaf:' + n, d.why[n]]); }
    });
    var root = this.el.querySelector('input[data-answer=root]'), got = number(root.value);
    root.classList.remove('abk-bad');
    if (got === null) { wrong.push(['root', d.root_missing]); root.classList.add('abk-bad'); }
    else if (isNaN(got)) { wrong.push(['root', fill(d.nan.root, root.value)]); root.classList.add('abk-bad'); }
    else if (got !== number(d.root)) { wrong.push(['root', fill(d.root_wrong, root.value.trim())]); root.classList.add('abk-bad'); }
    this.el.querySelectorAll('input[data-bound]').forEach(function (input) {
      var node = input.getAttribute('data-node'), side = input.getAttribute('data-bound'), v = number(input.value);
      input.classList.remove('abk-bad');
      if (v === null) { return; }
      if (isNaN(v)) { wrong.push(['bound:' + node + ':' + side, fill(d.nan[node], input.value)]); }
      else if (v !== number(d.bounds[node][side === 'alpha' ? 0 : 1])) {
        wrong.push(['bound:' + node + ':' + side, fill(d.bound_wrong[node][side], input.value.trim())]);
      } else { return; }
      input.classList.add('abk-bad');
    });
    var box = this.verdict;
    box.textContent = '';
    box.hidden = false;
    box.setAttribute('data-verdict', wrong.length ? 'wrong' : 'right');
    var head = document.createElement('p');
    head.textContent = wrong.length ? d.words.wrong : d.words.all_right;
    box.appendChild(head);
    if (wrong.length) {
      var ul = document.createElement('ul');
      wrong.forEach(function (w) {
        var li = document.createElement('li');
        li.setAttribute('data-item', w[0]);
        li.textContent = w[1];
        ul.appendChild(li);
      });
      box.appendChild(ul);
    }
    this.steps.hidden = false;
  };

  function start() {
    var all = [];
    document.querySelectorAll('.abk[data-abk]').forEach(function (el) {
      if (!el.abkStepper) { el.abkStepper = new Stepper(el); }
      all.push(el.abkStepper);
    });
    document.querySelectorAll('.abk-practice').forEach(function (el) {
      if (!el.abkPractice) { el.abkPractice = new Practice(el); }
    });
    if (!Stepper.active) { Stepper.active = all[0] || null; }
    window.abkSteppers = all;
    if (!start.keys) {
      start.keys = true;
      document.addEventListener('keydown', function (ev) {
        var s = Stepper.active;
        if (s && !s.el.contains(ev.target)) { s.key(ev); }
      });
    }
  }

  window.abkNumber = number;
  if (document.readyState === 'loading') { document.addEventListener('DOMContentLoaded', start); } else { start(); }
}());
